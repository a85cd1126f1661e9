cases = []
def add(*xs): cases.extend(xs)
for s in ["y","Y","yes","Yes","YES","on","On","ON","true","True","TRUE","n","N","no","No","NO","off","Off","OFF","false","False","FALSE","~","null","Null","NULL","","yEs","tRUE","nULL","oN","Nope",
          "0","12","+12","-12","-0","00","0x1F","0X1f","-0x1F","+0x1F","0o17","0O17","0b101","0B101","-0b101","0777","02472256","1_000","1__0_","0x_0A_74_AE","+685_230",
          "9223372036854775807","-9223372036854775808","9223372036854775808","18446744073709551615","0xFFFFFFFFFFFFFFFF","18446744073709551616","-9223372036854775809","+18446744073709551615",
          "08","09.5","0x","0b","0o","0x1FFFFFFFFFFFFFFFF","0b2","0o8","1:30","190:20:30","_1","1-2","0x1.8p1","12e","1e","--1","+-1","1,000","1.2.3",
          "1.0","1.","5.","1.5","1e3","1E3","1e+3","1.5e3","6.8523e+5","685.230_15e+03","685_230.15","123456e1",".5","-.5","+.5",".1_5",".5e1","-0.0","0.1","1e-400","1e18","1e20","1e21","-1e21",
          "4611686018427387904.0","9.223372036854775807e18","1e400","-1e400",".5e400","._5",".","..5",".5.",".e5","inf","nan","Infinity",".5_",".inf",".Inf","+.inf","-.inf",".nan",".NaN",
          "2001-12-14t21:59:43.10-05:00","2015-01-01","<<","'yes'",'"123"',"'~'",'""',"'it''s'",'"\\u00e9\\t\\x41"',
          "!!int \"123\"","!!int '0x10'","!!float 1","!!float '1.5'","!!bool yes","!!null ''","!!str yes","!!str 0x10","!!timestamp 2015-01-01","!!timestamp \"2015-2-3T3:4:5Z\"",
          "!<tag:yaml.org,2002:int> \"3\"","! 12","!custom 12","!!foo 12","!!binary aGVsbG8=","!!binary gIGC","!!int abc","!!int 1.5","!!bool 1","!!null x","!!timestamp foo","!!timestamp 2015-02-30",
          "!!float 9223372036854775808","!!binary aGVsbG8","!!binary a b","!x!y 1","!!float .inf","!!int -0b1000000000000000000000000000000000000000000000000000000000000000",
          "1_0.5","1e1_0","0x1_F","+0","-0x0","0b_1","1.5e-07","100000000000000000000","99999999999999999999999","2e308"]:
    add("v: " + s)
add("""a: |
  x
   y
b: >
  p
  q
""", "%TAG !e! tag:yaml.org,2002:\n---\nv: !e!int '5'", "v: !!map {a: 1}\nw: !custom [1]", "v: !!binary |\n  aGVs\n  bG8=",
"""base: &b {x: 1, z: 2}
big: &big {r: 10}
small: &small {r: 1}
one:
  <<: *b
  r: 10
multi:
  <<: [*b, *big]
override:
  <<: [*big, *b, *small]
  x: 5
inline:
  <<: {x: 1, r: 10}
tagged:
  !!merge "<<": *b
quoted:
  "<<": *b
""", "base: &b {x: 1}\nd:\n  x: 2\n  <<: *b\n", "base: &b {x: 1}\nd:\n  <<: *b\n  x: 2\n",
"a: &a 1\nb:\n  <<: *a", "b:\n  <<: 1", "a: &a 1\nb:\n  <<: [*a]", "b:\n  <<: [[1]]", "a: <<\nb: [<<]",
"a: &x 1\nb: &y [1, {c: d}]\nc: *x\nd: *y\ne: &x 2\nf: *x", "a: *nope", "a: &a [*a]", "a: &a\n  b: *a", "a: &x.y 1", "a: &x 1\nb: *x/y", "a: &x-y_1 1\nb: *x-y_1",
"""apiVersion: v1
kind: ConfigMap
metadata:
  name: a
  labels: {x: 1, x: 2}
  name: b
data:
  k: v
data:
  k2: v2
""", "~: a\nnull: b", "a: 1\na:\n", "a: &a {x: 1, x: 2}\nb: *a\nc: *a",
"a: .nan\na: 1\n~: x", "a: 1\na: 2\nb: [", "a: .nan\na: 1", "b: .nan\na: -.inf",
"1: a\n-5: b\n1.5: c\n0.1: d\n3.14159265358979: e\n1e6: f\n1e36: g\n.inf: i\n-.inf: j\n.nan: k\ntrue: l\nno: m\n2.0: q\n123456.0: o\n0.00001: p",
"1e300: h", "1: a\n\"1\": b", "~: 1", "9223372036854775808: [a, ~, {b: 1.5}]", "? [a, 1]\n: b", "{a: 1}: b",
"a: 1\n---\nb: 2", "---\n---\nb: 2", "a: 1\n... trailing junk is never read", "# comment\n---\na: 1", "", "   \n# just a comment\n", "---", "- a\n- b", "plain text", "%YAML 1.1\n---\na: 1",
"{\n\t\"apiVersion\": \"v1\",\n\t\"items\": [1, 2.5, -3e2, true, null, \"\\u0000\\u00e9\", {\"a\": []}],\n\t\"big\": 12345678901234567890\n}", "{\"a\":1,\"b\":[]}",
"{\"a\": \"x\\/y\"}", "{\n\"a\":\n \"x\\/y\"}",
"a: b: c", "a: 1\nb: c: d", "a: @x", "a:\n  b: `x", "\ta: 1", "a:\n\tb: 1", "a:\n  b: 1\n\t\n", "a: 1\n  \t# comment", "-\ta", "a:  \tb", "a:\t1", "a: \"unterminated",
"%FOO bar\n---\na: 1", "%YAML 1.2\n---\na: 1", "%YAML 1.1\n%YAML 1.1\n---\na: 1", "a:\n  b: 1\n- c", "a:\n  b: 1\n c: 2", "- a\nb: c", "a:\n  - b\n  c: d", "a: {x: 1\nb: 3", "a: 'x",
"a:\n  b: \"x\\qy\"", "a: [1,\n\t2]\nb: x\t# c\nc: \"p\n  \tq\"\nd: |\n  \tx\ne:\n  - 1\t", "a: 1\nb: [1, 2\n", "a: \"\\0\\x01\"", "\ufeffa: 1",
"a: [1, 2\nb: 3", "a: \"x\" y", "a:\n  - b\n  -c", "key:    \tvalue", "a: \"b\n\tc\"", "a: |\n\tx", "- a\n\t- b", "? \ta", "&x\ta", "---\tx", "  \t  a: 1", "a: b\n\tc",
"a: 1 \t", "a: 1\t# c", "{\"a\":\t1}", "a: \"a\\'b\"", "[a?b]", "{a:1}", "{\"a\":1}", "a: !!str\n  - b", "[a, b]]", "a: 1\n]", "a: &anchor\n  b: 1\nc: *anchor",
"- &a a\n- *a\n- &a b\n- *a", "a:\n  - 1\n  - 2\nb:\n- 3", "? a\n? b\n: c", "a: |-\n  x\n\n", "a: >+\n  x\n\n", "a: 'multi\n  line'", "a: \"esc \\\\ \\\" \\n\"",
"a: 2001-12-14 21:59:43.10 -5", "a: 12:30:00", "a: 0.5e-6", "a: 1.7976931348623157e308", "a: 4.9e-324", "a: -1e-7",
"{a: [b, {c: d}], e: f}", "[1, [2, [3, [4]]]]", "a: 'x'\na: 'y'\nb:\n  c:\n    d: 1\n    d: 2",
"- {a: 1, a: 2}\n- {b: 1, b: 2}", "a:\n  b: 1\na:\n  c: 2", "x: [a, b]\nx:\n  - c", "a: !!binary |\n  R0lGODlhDAAMAIQAAP//9/X17unp5WZmZgAAAOfn515eXvPz7Y6OjuDg4J+fn5OTk6enp56enmleECcgggoBADs=",
"a: b #comment\nc: d# not comment", "a: \"# not comment\"", "? |\n  block key\n: v", "a: -\n", "- -\n", "a: - b", "a: b\n  c: d", "a:\n  b\n c", "a: [b, c]: d",
"a: {b: c}: d", "[a]: b", "{? a: b}", "- [a, b]: c", "a: 'it''s'\nb: 'x", "a: \"\\x4A\\u263A\\U0001F600\"", "a: \"\\e\\N\\_\\L\\P\"", "a: \"\\z\"", "a: \"\\uD800\"",
"foo: bar # comment\n# other", "- a\n-\n- c", "a: b\n c", "[a, b, ]", "{a: 1,}", "-1: x", "a:\n  - b\n  - c\n d: e",
)
open('go_corpus.txt','w').write("\n#####\n".join(cases))
print(len(cases))
# alias accounting near go-yaml's limit
def laughs(levels, width, last_width):
    lines = ["l0: &l0 [" + ",".join(["x"] * width) + "]"]
    for i in range(1, levels):
        w = last_width if i == levels - 1 else width
        lines.append(f"l{i}: &l{i} [" + ",".join([f"*l{i-1}"] * w) + "]")
    return "\n".join(lines)
extra = []
for levels, width, last in [(2, 10, 10), (3, 10, 10), (3, 10, 11), (3, 12, 9), (4, 6, 6), (4, 7, 5), (2, 200, 100), (3, 9, 13), (3, 9, 14), (5, 4, 4), (5, 5, 3)]:
    extra.append(laughs(levels, width, last))
extra.append("a: &a {x: 1, y: [1, 2, 3]}\n" + "\n".join(f"k{i}: *a" for i in range(300)))
extra.append("base: &b {x: 1}\n" + "\n".join(f"m{i}:\n  <<: *b\n  y: {i}" for i in range(200)))
cases.extend(extra)
open('go_corpus.txt','w').write("\n#####\n".join(cases))
print(len(cases))
sweep = []
for levels, widths, lasts in [(4, range(6, 10), range(1, 10, 2)), (5, range(4, 6), range(1, 7)), (6, range(3, 5), range(1, 5, 2))]:
    for w in widths:
        for l in lasts:
            sweep.append(laughs(levels, w, l))
cases.extend(sweep)
open('go_corpus.txt','w').write("\n#####\n".join(cases))
print(len(cases))
# What go-yaml reads where a YAML 1.2 parser does not, and what it refuses.
leniencies = [
 'spec:\n  description: "A note whose text\n  goes on below its key"\n  other: \'single\n quoted, left of the key\'\n',
 "spec:\n  args: ['\n    echo hi\n  ']\n  more: [a,\nb,\n        c\n]\n",
 '"a" b: c\n', "'text'&x junk\n", '[1, 2] [3]\n', 'a: 1\n...\n]]] }}}\n',
 'a:\t1\nb: [\t2,\t3\t]\n', '-\tx\n', '- \tx\n', 'a: 1\t# c\n', '? a\n:\tb\n',
 'a: 1\x85b: "x\x85 y"\u2028c: "p\u2028q"\n', 'a: 1\u2028b: [\n', 'a: 1\u2029b: |\n  x\u2029  y\n',
 '[a?b]\n', '{a:b}\n', '[a: 1, b]\n', '[? , b]\n', '{? a, b: c}\n', '[a, b]: c\n', '{x: 1}: y\n',
 'k' * 1025 + ': v\n', 'k' * 1024 + ': v\n',
 'a: 1\n\ufeffb: 2\n', '\ufeff\ufeffa: 1\nb: 2\n',
 '...\na: 1\n', '%YAML 1.2\n---\na: 1\n', '%YAML 1.1\n%TAG !e! tag:example.com,2000:\n---\na: !e!x 1\n',
 'a: "x\n---\ny"\n', "a: 'x\n...\n'\n", 'a:\n  b: 1\n c: 2\n', 'a: |\n  x\n\ty\n', 'a: b\n\tc: d\n',
]
cases.extend(leniencies)
open('go_corpus.txt','w').write("\n#####\n".join(cases))
print(len(cases))
