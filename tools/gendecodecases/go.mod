module gendecodecases

go 1.22

require (
	gopkg.in/yaml.v2 v2.4.0
	sigs.k8s.io/json v0.0.0-20211208200746-9f7c6b3444d2
	sigs.k8s.io/yaml v1.3.0
)

// Debian's sources (golang-k8s-sigs-json-dev, golang-k8s-sigs-yaml-dev,
// golang-gopkg-yaml.v2-dev); go-spew is only needed by sigs.k8s.io/yaml's tests.
replace (
	github.com/davecgh/go-spew => ./stub/go-spew
	gopkg.in/yaml.v2 => /usr/share/gocode/src/gopkg.in/yaml.v2
	sigs.k8s.io/json => /usr/share/gocode/src/sigs.k8s.io/json
	sigs.k8s.io/yaml => /usr/share/gocode/src/sigs.k8s.io/yaml
)
