// Command genbuiltins writes builtins/data/types.txt: the facts about Kubernetes' own
// kinds that kstruct-builtins reads, derived from the Go types of k8s.io/api,
// k8s.io/apimachinery and the API server's own groups (apiextensions-apiserver,
// kube-aggregator) at each release tag. Only facts carry over: group-versions and
// their kinds, each struct's fields (JSON name, Go name, Go type, json tag options,
// list/map/struct markers), named types, and each kind's published lifecycle
// (introduced, deprecated, removed, replacement). No comment text is copied.
//
// Usage (from the repository root, with git and any Go toolchain; stdlib only):
//
//	go run ./tools/genbuiltins -api /path/to/kubernetes/api.git \
//	    -apimachinery /path/to/kubernetes/apimachinery.git \
//	    -apiextensions /path/to/kubernetes/apiextensions-apiserver.git \
//	    -aggregator /path/to/kubernetes/kube-aggregator.git > builtins/data/types.txt
//
// Each repository is read with `git show`/`git ls-tree` at the tags listed in
// `releases` (the development head at HEAD): no checkout is needed. With
// `-check-openapi PATH/TO/kubectl-validate.git`, the facts are also compared with the
// published OpenAPI v3 of each release kubectl-validate keeps (openapi.go), the
// differences printed to standard error.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

var defaultRef = regexp.MustCompile(`default=ref\(([A-Za-z0-9_]+)\)`)

// A release of Kubernetes and the tag of the k8s.io modules cut with it.
type release struct {
	name string // "1.30", ..., "head"
	ref  string // "v0.30.0", ..., "HEAD"
}

var releases = []release{
	{"1.30", "v0.30.0"}, {"1.31", "v0.31.0"}, {"1.32", "v0.32.0"}, {"1.33", "v0.33.0"},
	{"1.34", "v0.34.0"}, {"1.35", "v0.35.0"}, {"1.36", "v0.36.0"}, {"head", "HEAD"},
}

// The apimachinery packages whose types built-in kinds use, by the short name the facts give
// them.
var machinery = map[string]string{
	"meta/v1":  "pkg/apis/meta/v1",
	"runtime":  "pkg/runtime",
	"resource": "pkg/api/resource",
	"intstr":   "pkg/util/intstr",
	"types":    "pkg/types",
}

// importShort maps an import path to the short package name used in the facts.
func importShort(p string) (string, bool) {
	if p == "time" {
		// time.Time and time.Duration: inside types that decode themselves.
		return "time", true
	}
	if strings.HasPrefix(p, "k8s.io/api/") {
		return strings.TrimPrefix(p, "k8s.io/api/"), true
	}
	for _, server := range []string{"k8s.io/apiextensions-apiserver/pkg/apis/", "k8s.io/kube-aggregator/pkg/apis/"} {
		if strings.HasPrefix(p, server) {
			return strings.TrimPrefix(p, server), true
		}
	}
	if strings.HasPrefix(p, "k8s.io/apimachinery/") {
		rest := strings.TrimPrefix(p, "k8s.io/apimachinery/")
		for short, dir := range machinery {
			if dir == rest {
				return short, true
			}
		}
	}
	return "", false
}

func git(repo string, args ...string) []byte {
	cmd := exec.Command("git", append([]string{"--git-dir", repo}, args...)...)
	out, err := cmd.Output()
	if err != nil {
		fmt.Fprintf(os.Stderr, "git %v: %v\n", args, err)
		os.Exit(1)
	}
	return out
}

// One package's facts at one release.
type pkgFacts struct {
	group string
	kinds []string
	life  map[string]string // kind -> "introduced deprecated removed replacement"
	types map[string]string // type name -> its facts' text (without the name line)
	// Types with their own UnmarshalJSON: the decoder reads them as the method does.
	custom map[string]bool
	// String constants, for `+default=ref(Name)` markers.
	consts map[string]string
	hasGVK bool
}

// The Go files of a package directory that hold its declarations (not tests, not generated
// code but the lifecycle file).
func packageFiles(repo, ref, dir string) []string {
	var files []string
	for _, name := range strings.Split(strings.TrimSpace(string(git(repo, "ls-tree", "--name-only", ref+":"+dir))), "\n") {
		switch {
		case !strings.HasSuffix(name, ".go"), strings.HasSuffix(name, "_test.go"),
			name == "generated.pb.go", name == "types_swagger_doc_generated.go",
			strings.HasPrefix(name, "zz_generated.") && name != "zz_generated.prerelease-lifecycle.go":
			continue
		}
		files = append(files, name)
	}
	return files
}

func readPackage(repo, ref, dir string) *pkgFacts {
	pf := &pkgFacts{life: map[string]string{}, types: map[string]string{}, custom: map[string]bool{}, consts: map[string]string{}}
	fset := token.NewFileSet()
	for _, name := range packageFiles(repo, ref, dir) {
		src := git(repo, "show", ref+":"+path.Join(dir, name))
		f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s %s/%s: %v\n", ref, dir, name, err)
			os.Exit(1)
		}
		imports := map[string]string{}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			local := path.Base(p)
			if imp.Name != nil {
				local = imp.Name.Name
			}
			if short, ok := importShort(p); ok {
				imports[local] = short
			}
		}
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.GenDecl:
				readGenDecl(pf, d, imports)
			case *ast.FuncDecl:
				readFunc(pf, d)
			}
		}
	}
	for name, text := range pf.types {
		// `+default=ref(AzureDataDiskCachingReadWrite)`: the constant's value, as JSON, under
		// its own name (the server's OpenAPI writes it; controller-gen does not).
		text = defaultRef.ReplaceAllStringFunc(text, func(m string) string {
			if v, ok := pf.consts[defaultRef.FindStringSubmatch(m)[1]]; ok {
				return "defaultRef=" + strconv.Quote(v)
			}
			return m
		})
		pf.types[name] = text
		if pf.custom[name] {
			head, rest, _ := strings.Cut(text, "\n")
			pf.types[name] = head + " unmarshalJSON\n" + rest
		}
	}
	return pf
}

func readGenDecl(pf *pkgFacts, d *ast.GenDecl, imports map[string]string) {
	for _, spec := range d.Specs {
		switch s := spec.(type) {
		case *ast.ValueSpec:
			// const GroupName = "apps"
			for i, n := range s.Names {
				if i >= len(s.Values) {
					continue
				}
				if lit, ok := s.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
					v, _ := strconv.Unquote(lit.Value)
					pf.consts[n.Name] = v
					if n.Name == "GroupName" {
						pf.group = v
					}
				}
			}
		case *ast.TypeSpec:
			if !s.Name.IsExported() || s.TypeParams != nil {
				continue
			}
			doc := s.Doc
			if doc == nil && len(d.Specs) == 1 {
				doc = d.Doc
			}
			markers := typeMarkers(doc)
			switch t := s.Type.(type) {
			case *ast.StructType:
				pf.types[s.Name.Name] = structFacts(t, markers, imports)
			default:
				if s.Assign.IsValid() {
					pf.types[s.Name.Name] = "alias " + typeText(s.Type, imports) + markers + "\n"
				} else {
					pf.types[s.Name.Name] = "named " + typeText(s.Type, imports) + markers + "\n"
				}
			}
		}
	}
}

// The markers of a type or field kstruct reads, as ` key=value` words.
func markerWords(doc *ast.CommentGroup, keep func(string) bool) string {
	if doc == nil {
		return ""
	}
	var words []string
	for _, c := range doc.List {
		line := strings.TrimSpace(strings.TrimPrefix(c.Text, "//"))
		if !strings.HasPrefix(line, "+") {
			continue
		}
		m := strings.TrimPrefix(line, "+")
		if keep(m) {
			words = append(words, strings.ReplaceAll(m, " ", ""))
		}
	}
	if len(words) == 0 {
		return ""
	}
	return " " + strings.Join(words, " ")
}

func typeMarkers(doc *ast.CommentGroup) string {
	return markerWords(doc, func(m string) bool {
		for _, p := range []string{"structType=", "mapType=", "listType=", "k8s:deepcopy-gen:interfaces=", "genclient:nonNamespaced", "genclient"} {
			if m == strings.TrimSuffix(p, "=") || strings.HasPrefix(m, p) {
				return p != "k8s:deepcopy-gen:interfaces=" || strings.HasSuffix(m, "runtime.Object")
			}
		}
		return false
	})
}

func fieldMarkers(doc *ast.CommentGroup) string {
	return markerWords(doc, func(m string) bool {
		for _, p := range []string{"listType=", "listMapKey=", "mapType=", "structType=", "optional", "required", "default=", "featureGate="} {
			if m == strings.TrimSuffix(p, "=") || strings.HasPrefix(m, p) {
				return true
			}
		}
		return false
	})
}

func structFacts(t *ast.StructType, markers string, imports map[string]string) string {
	var b strings.Builder
	b.WriteString("struct" + markers + "\n")
	for _, f := range t.Fields.List {
		tag := ""
		if f.Tag != nil {
			raw, _ := strconv.Unquote(f.Tag.Value)
			tag = reflect.StructTag(raw).Get("json")
		}
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		goName := ""
		if len(f.Names) > 0 {
			goName = f.Names[0].Name
			if !f.Names[0].IsExported() {
				continue
			}
		} else {
			// Embedded: the field's name is the type's.
			goName = embeddedName(f.Type)
		}
		if name == "" && len(f.Names) == 0 {
			name = "-"
		} else if name == "" {
			name = goName
		}
		if opts == "" {
			opts = "-"
		}
		fmt.Fprintf(&b, "  %s %s %s %s%s\n", name, goName, typeText(f.Type, imports), opts, fieldMarkers(f.Doc))
	}
	return b.String()
}

func embeddedName(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return embeddedName(t.X)
	case *ast.SelectorExpr:
		return t.Sel.Name
	case *ast.Ident:
		return t.Name
	}
	return "?"
}

// A type expression with package names replaced by the facts' short names: `*int32`,
// `[]core/v1.Container`, `map[string]resource.Quantity`.
func typeText(e ast.Expr, imports map[string]string) string {
	switch t := e.(type) {
	case *ast.Ident:
		return t.Name
	case *ast.StarExpr:
		return "*" + typeText(t.X, imports)
	case *ast.ArrayType:
		if t.Len != nil {
			return "[N]" + typeText(t.Elt, imports)
		}
		return "[]" + typeText(t.Elt, imports)
	case *ast.MapType:
		return "map[" + typeText(t.Key, imports) + "]" + typeText(t.Value, imports)
	case *ast.SelectorExpr:
		pkg := t.X.(*ast.Ident).Name
		if short, ok := imports[pkg]; ok {
			return short + "." + t.Sel.Name
		}
		return "?" + pkg + "." + t.Sel.Name
	case *ast.InterfaceType:
		return "interface{}"
	case *ast.StructType:
		return "struct{}"
	}
	return "?"
}

// Reads `func (in *Kind) APILifecycleIntroduced() (major, minor int) { return 1, 9 }` and its
// siblings.
func readFunc(pf *pkgFacts, d *ast.FuncDecl) {
	if d.Recv == nil || len(d.Recv.List) != 1 || d.Body == nil {
		return
	}
	recvType := d.Recv.List[0].Type
	if star, ok := recvType.(*ast.StarExpr); ok {
		recvType = star.X
	}
	recv, ok := recvType.(*ast.Ident)
	if !ok {
		return
	}
	if d.Name.Name == "UnmarshalJSON" {
		pf.custom[recv.Name] = true
	}
	if len(d.Body.List) != 1 {
		return
	}
	ret, ok := d.Body.List[0].(*ast.ReturnStmt)
	if !ok {
		return
	}
	what := ""
	switch d.Name.Name {
	case "APILifecycleIntroduced":
		what = "introduced"
	case "APILifecycleDeprecated":
		what = "deprecated"
	case "APILifecycleRemoved":
		what = "removed"
	case "APILifecycleReplacement":
		what = "replacement"
	default:
		return
	}
	var val string
	if what == "replacement" && len(ret.Results) == 1 {
		lit, ok := ret.Results[0].(*ast.CompositeLit)
		if !ok {
			return
		}
		parts := map[string]string{}
		for _, el := range lit.Elts {
			kv, ok := el.(*ast.KeyValueExpr)
			if !ok {
				continue
			}
			if bl, ok := kv.Value.(*ast.BasicLit); ok {
				parts[kv.Key.(*ast.Ident).Name], _ = strconv.Unquote(bl.Value)
			}
		}
		gv := parts["Version"]
		if parts["Group"] != "" {
			gv = parts["Group"] + "/" + gv
		}
		val = gv + "/" + parts["Kind"]
	} else if len(ret.Results) == 2 {
		a, ok1 := ret.Results[0].(*ast.BasicLit)
		b, ok2 := ret.Results[1].(*ast.BasicLit)
		if !ok1 || !ok2 {
			return
		}
		val = a.Value + "." + b.Value
	} else {
		return
	}
	pf.life[recv.Name] += " " + what + "=" + val
}

// The kinds a package registers: `scheme.AddKnownTypes(SchemeGroupVersion, &Deployment{}, ...)`.
func registeredKinds(repo, ref, dir string) []string {
	src := git(repo, "show", ref+":"+path.Join(dir, "register.go"))
	f, err := parser.ParseFile(token.NewFileSet(), "register.go", src, 0)
	if err != nil {
		return nil
	}
	var kinds []string
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "AddKnownTypes" {
			return true
		}
		for _, arg := range call.Args[1:] {
			if u, ok := arg.(*ast.UnaryExpr); ok {
				if lit, ok := u.X.(*ast.CompositeLit); ok {
					if id, ok := lit.Type.(*ast.Ident); ok {
						kinds = append(kinds, id.Name)
					}
				}
			}
		}
		return true
	})
	return kinds
}

// Facts seen in several releases, kept once with the set of releases that have them.
type seen struct {
	order []string
	masks map[string]uint32
}

func (s *seen) add(text string, bit uint32) {
	if s.masks == nil {
		s.masks = map[string]uint32{}
	}
	if _, ok := s.masks[text]; !ok {
		s.order = append(s.order, text)
	}
	s.masks[text] |= bit
}

func main() {
	api := flag.String("api", "", "git directory of kubernetes/api (k8s.io/api)")
	mach := flag.String("apimachinery", "", "git directory of kubernetes/apimachinery")
	ext := flag.String("apiextensions", "", "git directory of kubernetes/apiextensions-apiserver (apiextensions.k8s.io)")
	agg := flag.String("aggregator", "", "git directory of kubernetes/kube-aggregator (apiregistration.k8s.io)")
	openapi := flag.String("check-openapi", "", "git directory of kubernetes-sigs/kubectl-validate: cross-check the facts against its copies of the published OpenAPI v3 (to standard error)")
	flag.Parse()
	if *api == "" || *mach == "" {
		flag.Usage()
		os.Exit(2)
	}
	// Group-version lines and type blocks, each with the releases that have it.
	gvs := map[string]*seen{}
	types := map[string]*seen{}
	// The repositories of group-versions: k8s.io/api's packages (`apps/v1`), and the API
	// server's own groups kept beside their servers (`pkg/apis/apiextensions/v1`).
	type source struct {
		repo, root string
	}
	sources := []source{{*api, ""}}
	if *ext != "" {
		sources = append(sources, source{*ext, "pkg/apis/"})
	}
	if *agg != "" {
		sources = append(sources, source{*agg, "pkg/apis/"})
	}
	for i, rel := range releases {
		bit := uint32(1) << i
		for _, src := range sources {
			args := []string{"ls-tree", "-r", "--name-only", rel.ref}
			if src.root != "" {
				args = append(args, "--", src.root)
			}
			files := strings.TrimSpace(string(git(src.repo, args...)))
			for _, f := range strings.Split(files, "\n") {
				rest := strings.TrimPrefix(f, src.root)
				if !strings.HasSuffix(rest, "/register.go") || strings.Count(rest, "/") != 2 {
					continue
				}
				dir := path.Dir(f)
				short := strings.TrimPrefix(dir, src.root)
				pf := readPackage(src.repo, rel.ref, dir)
				kinds := registeredKinds(src.repo, rel.ref, dir)
				if len(kinds) > 0 {
					gv := path.Base(dir)
					if pf.group != "" {
						gv = pf.group + "/" + gv
					}
					s := gvs[gv]
					if s == nil {
						s = &seen{}
						gvs[gv] = s
					}
					for _, k := range kinds {
						s.add(fmt.Sprintf("kind %s %s%s", k, short+"."+k, pf.life[k]), bit)
					}
				}
				addTypes(types, short, pf, bit)
			}
		}
		for short, dir := range machinery {
			addTypes(types, short, readPackage(*mach, rel.ref, dir), bit)
		}
	}
	if *openapi != "" {
		crossCheck(*openapi, types)
	}
	// The development head is named by its commit: the facts say which one they hold.
	var heads []string
	for _, src := range sources {
		heads = append(heads, strings.TrimSpace(string(git(src.repo, "rev-parse", "HEAD"))))
	}
	heads = append(heads, strings.TrimSpace(string(git(*mach, "rev-parse", "HEAD"))))
	head := strings.Join(heads, ",")
	write(gvs, types, func(ref string) string {
		if ref == "HEAD" {
			return head
		}
		return ref
	})
}

func addTypes(types map[string]*seen, pkg string, pf *pkgFacts, bit uint32) {
	for name, text := range pf.types {
		key := pkg + "." + name
		s := types[key]
		if s == nil {
			s = &seen{}
			types[key] = s
		}
		s.add(text, bit)
	}
}

// The facts, sorted, each line or block followed by the releases that hold it as a mask over
// the `releases` line (bit 0: the first).
func write(gvs, types map[string]*seen, refName func(string) string) {
	var b bytes.Buffer
	b.WriteString("# Facts of Kubernetes' own kinds, derived by tools/genbuiltins from the Go types of\n")
	b.WriteString("# k8s.io/api, apimachinery, apiextensions-apiserver and kube-aggregator (Apache-2.0; see PROVENANCE.md).\n")
	b.WriteString("releases")
	for _, r := range releases {
		fmt.Fprintf(&b, " %s=%s", r.name, refName(r.ref))
	}
	b.WriteString("\n")
	for _, gv := range sortedKeys(gvs) {
		fmt.Fprintf(&b, "gv %s\n", gv)
		s := gvs[gv]
		for _, line := range s.order {
			fmt.Fprintf(&b, "  %s @%x\n", line, s.masks[line])
		}
	}
	for _, name := range sortedKeys(reachable(gvs, types)) {
		s := types[name]
		for _, text := range s.order {
			fmt.Fprintf(&b, "type %s @%x %s", name, s.masks[text], text)
		}
	}
	os.Stdout.Write(b.Bytes())
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// The types the kinds use, directly or through others, in any release.
func reachable(gvs, types map[string]*seen) map[string]*seen {
	out := map[string]*seen{}
	var todo []string
	for _, s := range gvs {
		for _, line := range s.order {
			todo = append(todo, strings.Fields(line)[2])
		}
	}
	for len(todo) > 0 {
		name := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		s, ok := types[name]
		if _, done := out[name]; done || !ok {
			continue
		}
		out[name] = s
		pkg := name[:strings.LastIndex(name, ".")]
		for _, text := range s.order {
			for _, line := range strings.Split(text, "\n") {
				words := strings.Fields(line)
				var typ string
				switch {
				case len(words) >= 3 && strings.HasPrefix(line, "  "):
					typ = words[2]
				case len(words) >= 2 && (words[0] == "named" || words[0] == "alias"):
					typ = words[1]
				default:
					continue
				}
				for _, ref := range typeNames(typ) {
					if !strings.Contains(ref, ".") {
						ref = pkg + "." + ref
					}
					todo = append(todo, ref)
				}
			}
		}
	}
	return out
}

// The named types in a type's text: `map[ResourceName]resource.Quantity` names
// `ResourceName` and `resource.Quantity`.
func typeNames(t string) []string {
	var names []string
	for _, w := range strings.FieldsFunc(t, func(r rune) bool { return r == '*' || r == '[' || r == ']' }) {
		w = strings.TrimPrefix(w, "map")
		if w == "" || w == "N" {
			continue
		}
		base := w[strings.LastIndex(w, ".")+1:]
		if base != "" && base[0] >= 'A' && base[0] <= 'Z' {
			names = append(names, w)
		}
	}
	return names
}
