// Command gentables writes schema/src/regexp/tables.rs: the Unicode data that
// Go's regexp/syntax reads from package unicode, taken from the Go toolchain
// that runs this program, so the Rust port sees exactly the same sets.
//
// Usage (from the repository root, with a Go 1.27 toolchain):
//
//	go run ./tools/gentables > schema/src/regexp/tables.rs
package main

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"sort"
	"strings"
	"unicode"
)

// canon mirrors the canonical-name rule of regexp/syntax: separators
// dropped, first letter upper case, the rest lower case.
func canon(name string) string {
	var b strings.Builder
	first := true
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '_' || c == '-' || c == ' ':
			continue
		case first:
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			first = false
		default:
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// ranges flattens t into sorted, merged [lo, hi] pairs.
func ranges(t *unicode.RangeTable) []rune {
	var out []rune
	add := func(lo, hi rune) {
		n := len(out)
		if n > 0 && lo <= out[n-1]+1 {
			if hi > out[n-1] {
				out[n-1] = hi
			}
			return
		}
		out = append(out, lo, hi)
	}
	for _, r := range t.R16 {
		if r.Stride == 1 {
			add(rune(r.Lo), rune(r.Hi))
			continue
		}
		for c := rune(r.Lo); c <= rune(r.Hi); c += rune(r.Stride) {
			add(c, c)
		}
	}
	for _, r := range t.R32 {
		if r.Stride == 1 {
			add(rune(r.Lo), rune(r.Hi))
			continue
		}
		for c := rune(r.Lo); c <= rune(r.Hi); c += rune(r.Stride) {
			add(c, c)
		}
	}
	for i := 2; i < len(out); i += 2 {
		if out[i] <= out[i-1]+1 {
			panic("table not sorted")
		}
	}
	return out
}

func writeRanges(w *bufio.Writer, rs []rune) {
	fmt.Fprintf(w, "&[")
	for i := 0; i < len(rs); i += 2 {
		if i%16 == 0 {
			fmt.Fprintf(w, "\n        ")
		} else {
			fmt.Fprintf(w, " ")
		}
		fmt.Fprintf(w, "0x%x, 0x%x,", rs[i], rs[i+1])
	}
	fmt.Fprintf(w, "\n    ]")
}

func writeTables(w *bufio.Writer, name, doc string, tabs map[string]*unicode.RangeTable, folds map[string]*unicode.RangeTable) {
	var keys []string
	for k := range tabs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Fprintf(w, "/// %s\n#[rustfmt::skip]\npub(super) static %s: &[Table] = &[\n", doc, name)
	for _, k := range keys {
		fmt.Fprintf(w, "    Table {\n    name: %q,\n    ranges: ", k)
		writeRanges(w, ranges(tabs[k]))
		fmt.Fprintf(w, ",\n    fold: ")
		if f := folds[k]; f != nil {
			fmt.Fprintf(w, "Some(")
			writeRanges(w, ranges(f))
			fmt.Fprintf(w, ")")
		} else {
			fmt.Fprintf(w, "None")
		}
		fmt.Fprintf(w, ",\n    },\n")
	}
	fmt.Fprintf(w, "];\n\n")
}

func writeAliases(w *bufio.Writer, name, doc string, m map[string]string) {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Fprintf(w, "/// %s\n#[rustfmt::skip]\npub(super) static %s: &[(&str, &str)] = &[\n", doc, name)
	for _, k := range keys {
		fmt.Fprintf(w, "    (%q, %q),\n", k, m[k])
	}
	fmt.Fprintf(w, "];\n\n")
}

func main() {
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	fmt.Fprintf(w, "//! Unicode %s data as Go's `unicode` package holds it (generated from %s\n", unicode.Version, runtime.Version())
	fmt.Fprintf(w, "//! by `tools/gentables`; do not edit by hand).\n//!\n")
	fmt.Fprintf(w, "//! Every set is stored as sorted, merged, inclusive `lo, hi` pairs: the parser\n")
	fmt.Fprintf(w, "//! only ever needs the merged form, whatever strides Go's tables use.\n\n")
	fmt.Fprintf(w, "/// A named set of code points and, where Go has one, the extra code points\n/// that case folding adds to it.\n")
	fmt.Fprintf(w, "pub(super) struct Table {\n    /// The key in Go's map.\n    pub(super) name: &'static str,\n")
	fmt.Fprintf(w, "    /// Flat `lo, hi` pairs.\n    pub(super) ranges: &'static [u32],\n")
	fmt.Fprintf(w, "    /// Flat `lo, hi` pairs of the fold table, if Go has one.\n    pub(super) fold: Option<&'static [u32]>,\n}\n\n")
	fmt.Fprintf(w, "/// The Unicode version of these tables.\npub(super) const UNICODE_VERSION: &str = %q;\n\n", unicode.Version)

	writeTables(w, "CATEGORIES", "Go's `unicode.Categories`, with `unicode.FoldCategory`, sorted by name.", unicode.Categories, unicode.FoldCategory)
	writeTables(w, "SCRIPTS", "Go's `unicode.Scripts`, with `unicode.FoldScript`, sorted by name.", unicode.Scripts, unicode.FoldScript)

	cat := map[string]string{}
	for k, v := range unicode.CategoryAliases {
		c := canon(k)
		if old, ok := cat[c]; ok && old != v {
			panic("category alias collision " + c)
		}
		cat[c] = v
	}
	writeAliases(w, "CATEGORY_ALIASES", "`unicode.CategoryAliases` keyed by canonical name, sorted by key.", cat)
	scr := map[string]string{}
	for k := range unicode.Scripts {
		c := canon(k)
		if _, ok := scr[c]; ok {
			panic("script collision " + c)
		}
		scr[c] = k
	}
	writeAliases(w, "SCRIPT_ALIASES", "Script names keyed by canonical name, sorted by key.", scr)

	fmt.Fprintf(w, "/// Every code point that `unicode.SimpleFold` moves, with its image, sorted.\n#[rustfmt::skip]\npub(super) static SIMPLE_FOLD: &[(u32, u32)] = &[")
	n := 0
	for r := rune(0); r <= unicode.MaxRune; r++ {
		f := unicode.SimpleFold(r)
		if f != r {
			if n%6 == 0 {
				fmt.Fprintf(w, "\n    ")
			} else {
				fmt.Fprintf(w, " ")
			}
			fmt.Fprintf(w, "(0x%x, 0x%x),", r, f)
			n++
		}
	}
	fmt.Fprintf(w, "\n];\n")
}
