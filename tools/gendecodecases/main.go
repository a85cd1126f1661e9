// The request-body stage of the API server, run with Go's own libraries: what
// apimachinery's json.Serializer does when it decodes a custom resource into an
// Unstructured (YAML conversion, the TypeMeta pre-parse with encoding/json, strict or lenient
// decoding with sigs.k8s.io/json, the missing-kind check). Reads gen.py's cases on stdin,
// writes one result per line.
package main

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	kjson "sigs.k8s.io/json"
	sigsyaml "sigs.k8s.io/yaml"
)

type Case struct {
	Name      string `json:"name"`
	BodyHex   string `json:"body_hex"`
	Format    string `json:"format"`
	Strict    bool   `json:"strict"`
	FatalOnly bool   `json:"fatal_only"`
}

type Result struct {
	Name         string      `json:"name"`
	Body         string      `json:"body"`
	BodyHex      string      `json:"body_hex"`
	Format       string      `json:"format"`
	Strict       bool        `json:"strict"`
	Fatal        *string     `json:"fatal"`
	StrictErrors []string    `json:"strictErrors"`
	Object       interface{} `json:"object"`
	Omitted      bool        `json:"omitted,omitempty"`
	ObjectNull   bool        `json:"objectIsNilMap,omitempty"`
}

func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func trim(b []byte) []byte {
	s, e := 0, len(b)
	for s < e && isJSONSpace(b[s]) {
		s++
	}
	for e > s && isJSONSpace(b[e-1]) {
		e--
	}
	return b[s:e]
}

func run(body []byte, isYAML, strict bool) (fatal *string, serrs []string, obj map[string]interface{}) {
	f := func(s string) *string { return &s }
	serrs = []string{}
	data := body
	if isYAML {
		d, err := sigsyaml.YAMLToJSON(body)
		if err != nil {
			return f(err.Error()), serrs, nil
		}
		data = d
	}
	findKind := struct {
		APIVersion string `json:"apiVersion,omitempty"`
		Kind       string `json:"kind,omitempty"`
	}{}
	if err := json.Unmarshal(data, &findKind); err != nil {
		return f("couldn't get version/kind; json parse error: " + err.Error()), serrs, nil
	}
	// The meta factory's Interpret parses the group version before anything else decodes.
	if strings.Count(findKind.APIVersion, "/") >= 2 && findKind.APIVersion != "/" {
		return f("unexpected GroupVersion string: " + findKind.APIVersion), serrs, nil
	}
	m := map[string]interface{}{}
	if strict {
		if isYAML {
			if _, err := sigsyaml.YAMLToJSONStrict(body); err != nil {
				serrs = append(serrs, err.Error())
			}
		}
		se, err := kjson.UnmarshalStrict(data, &m)
		if err != nil {
			return f(err.Error()), serrs, nil
		}
		for _, e := range se {
			serrs = append(serrs, e.Error())
		}
	} else {
		if err := kjson.UnmarshalCaseSensitivePreserveInts(data, &m); err != nil {
			return f(err.Error()), serrs, nil
		}
	}
	kind, _ := m["kind"].(string)
	apiVersion, _ := m["apiVersion"].(string)
	badGV := strings.Count(apiVersion, "/") >= 2 && apiVersion != "/"
	if badGV || kind == "" {
		var x string
		if strict {
			x = string(body)
		} else if isYAML {
			x = string(data)
		} else {
			x = string(trim(data))
		}
		return f(fmt.Sprintf("Object 'Kind' is missing in '%s'", x)), serrs, m
	}
	return nil, serrs, m
}

func main() {
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<28)
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	for sc.Scan() {
		var c Case
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			panic(err)
		}
		body, err := hex.DecodeString(c.BodyHex)
		if err != nil {
			panic(err)
		}
		fatal, serrs, m := run(body, c.Format == "yaml", c.Strict)
		r := Result{Name: c.Name, Body: string(body), BodyHex: c.BodyHex, Format: c.Format, Strict: c.Strict, Fatal: fatal, StrictErrors: serrs}
		if fatal == nil {
			if m == nil {
				r.ObjectNull = true
			}
			r.Object = m
		}
		if c.FatalOnly {
			r.Object = nil
			r.Omitted = true
			if len(r.Body) > 200 {
				r.Body = r.Body[:100] + "..." + r.Body[len(r.Body)-100:]
			}
			r.BodyHex = ""
		}
		out, err := json.Marshal(r)
		if err != nil {
			// e.g. unsupported values; report as such
			s := "MARSHAL ERROR: " + err.Error()
			r.Object = s
			out, _ = json.Marshal(r)
		}
		w.Write(out)
		w.WriteByte('\n')
	}
	if err := sc.Err(); err != nil {
		panic(err)
	}
}
