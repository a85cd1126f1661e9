package main

// The cross-check of the facts against the OpenAPI v3 the API server publishes for each
// release (kubectl-validate keeps the same documents under
// pkg/openapiclient/builtins/<minor>/): property names, list types and keys, map types.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"sort"
	"strings"
)

type schema struct {
	Properties map[string]struct {
		ListType string          `json:"x-kubernetes-list-type"`
		MapKeys  []string        `json:"x-kubernetes-list-map-keys"`
		MapType  string          `json:"x-kubernetes-map-type"`
		Default  json.RawMessage `json:"default"`
	} `json:"properties"`
	MapType string `json:"x-kubernetes-map-type"`
}

// textAt is a type's facts in the release of `bit`.
func textAt(types map[string]*seen, name string, bit uint32) (string, bool) {
	s, ok := types[name]
	if !ok {
		return "", false
	}
	for _, t := range s.order {
		if s.masks[t]&bit != 0 {
			return t, true
		}
	}
	return "", false
}

type fieldFacts struct {
	listType, mapType, def string
	keys                   []string
}

// props is the JSON properties of a struct type, embedded structs' included, with the
// markers of each (a named type's own markers where the field has none).
func props(types map[string]*seen, name string, bit uint32, out map[string]fieldFacts) bool {
	text, ok := textAt(types, name, bit)
	if w := strings.Fields(text); ok && len(w) > 1 && w[0] == "alias" {
		// `type RuleWithOperations = v1.RuleWithOperations`: the other type's fields.
		return props(types, w[1], bit, out)
	}
	if !ok || !strings.HasPrefix(text, "struct") {
		return false
	}
	pkg := name[:strings.LastIndex(name, ".")]
	for _, line := range strings.Split(text, "\n")[1:] {
		w := strings.Fields(line)
		if len(w) < 4 {
			continue
		}
		typ := strings.TrimPrefix(w[2], "*")
		qualified := typ
		if !strings.Contains(typ, ".") {
			qualified = pkg + "." + strings.TrimPrefix(typ, "[]")
		}
		if w[0] == "-" || strings.Contains(w[3], "inline") {
			props(types, qualified, bit, out)
			continue
		}
		var f fieldFacts
		markers := w[4:]
		if named, ok := textAt(types, qualified, bit); ok && !strings.HasPrefix(typ, "[]") {
			// `type X []Y // +listType=...` or `type M map... // +mapType=...`.
			markers = append(strings.Fields(strings.SplitN(named, "\n", 2)[0]), markers...)
		}
		for _, m := range markers {
			switch {
			case strings.HasPrefix(m, "listType="):
				f.listType = strings.TrimPrefix(m, "listType=")
			case strings.HasPrefix(m, "listMapKey="):
				f.keys = append(f.keys, strings.TrimPrefix(m, "listMapKey="))
			case strings.HasPrefix(m, "mapType="):
				f.mapType = strings.TrimPrefix(m, "mapType=")
			case strings.HasPrefix(m, "default="), strings.HasPrefix(m, "defaultRef="):
				f.def = compact(m[strings.Index(m, "=")+1:])
			case strings.HasPrefix(m, "structType="):
				f.mapType = strings.TrimPrefix(m, "structType=")
			}
		}
		out[w[0]] = f
	}
	return true
}

// ourName maps an OpenAPI schema name to the facts' type name.
func ourName(component string) (string, bool) {
	if rest := strings.TrimPrefix(component, "io.k8s.api."); rest != component {
		i := strings.LastIndex(rest, ".")
		j := strings.LastIndex(rest[:i], ".")
		return strings.ReplaceAll(rest[:j], ".", "/") + "/" + rest[j+1:i] + "." + rest[i+1:], true
	}
	for _, server := range []string{"io.k8s.apiextensions-apiserver.pkg.apis.", "io.k8s.kube-aggregator.pkg.apis."} {
		if rest := strings.TrimPrefix(component, server); rest != component {
			i := strings.LastIndex(rest, ".")
			return strings.ReplaceAll(rest[:i], ".", "/") + "." + rest[i+1:], true
		}
	}
	for short, dir := range machinery {
		prefix := "io.k8s.apimachinery." + strings.ReplaceAll(dir, "/", ".") + "."
		if rest := strings.TrimPrefix(component, prefix); rest != component && !strings.Contains(rest, ".") {
			return short + "." + rest, true
		}
	}
	return "", false
}

func crossCheck(vgit string, types map[string]*seen) {
	var schemas, properties, differences int
	var shown []string
	differ := func(s string) {
		differences++
		shown = append(shown, s)
	}
	for i, rel := range releases {
		bit := uint32(1) << i
		dir := "pkg/openapiclient/builtins/" + rel.name
		list := strings.TrimSpace(string(git(vgit, "ls-tree", "-r", "--name-only", "HEAD", dir+"/")))
		if list == "" {
			continue
		}
		seenHere := map[string]bool{}
		for _, file := range strings.Split(list, "\n") {
			var doc struct {
				Components struct {
					Schemas map[string]schema `json:"schemas"`
				} `json:"components"`
			}
			if err := json.Unmarshal(git(vgit, "show", "HEAD:"+file), &doc); err != nil {
				fmt.Fprintf(os.Stderr, "%s: %v\n", file, err)
				os.Exit(1)
			}
			for component, s := range doc.Components.Schemas {
				name, ok := ourName(component)
				if !ok || seenHere[name] {
					continue
				}
				seenHere[name] = true
				ours := map[string]fieldFacts{}
				text, declared := textAt(types, name, bit)
				if !declared {
					differ(fmt.Sprintf("%s %s (%s): published, not in the facts", rel.name, name, path.Base(file)))
					continue
				}
				if strings.Contains(strings.SplitN(text, "\n", 2)[0], "unmarshalJSON") || !props(types, name, bit, ours) {
					continue
				}
				schemas++
				for p, facts := range s.Properties {
					properties++
					f, ok := ours[p]
					if !ok {
						differ(fmt.Sprintf("%s %s.%s: published, not a field", rel.name, name, p))
						continue
					}
					if f.listType != facts.ListType || strings.Join(f.keys, ",") != strings.Join(facts.MapKeys, ",") {
						differ(fmt.Sprintf("%s %s.%s: list %s %v, published %s %v", rel.name, name, p, f.listType, f.keys, facts.ListType, facts.MapKeys))
					}
					// Zero values (`""`, `0`, `false`, `{}`) of required fields come from the
					// OpenAPI generator, not from markers.
					zero := map[string]bool{`""`: true, "0": true, "false": true, "{}": true}
					if d := compact(string(facts.Default)); d != f.def && !(f.def == "" && zero[d]) {
						differ(fmt.Sprintf("%s %s.%s: default %s, published %s", rel.name, name, p, f.def, d))
					}
					if facts.MapType != "" && f.mapType != facts.MapType {
						differ(fmt.Sprintf("%s %s.%s: map type %q, published %q", rel.name, name, p, f.mapType, facts.MapType))
					}
				}
				for p := range ours {
					if _, ok := s.Properties[p]; !ok {
						differ(fmt.Sprintf("%s %s.%s: a field, not published", rel.name, name, p))
					}
				}
			}
		}
	}
	sort.Strings(shown)
	for _, s := range shown {
		fmt.Fprintln(os.Stderr, s)
	}
	fmt.Fprintf(os.Stderr, "cross-check: %d schemas, %d properties, %d differences\n", schemas, properties, differences)
}

// compact is JSON text without spaces; text that is not JSON as it is.
func compact(text string) string {
	var b bytes.Buffer
	if json.Compact(&b, []byte(text)) != nil {
		return text
	}
	return b.String()
}
