package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io/ioutil"
	"math"
	"os"
	"reflect"
	"strconv"
	"strings"

	yaml "gopkg.in/yaml.v2"
)

func conv(o interface{}) (interface{}, error) {
	switch t := o.(type) {
	case map[interface{}]interface{}:
		m := map[string]interface{}{}
		for k, v := range t {
			var ks string
			switch tk := k.(type) {
			case string:
				ks = tk
			case int:
				ks = strconv.Itoa(tk)
			case int64:
				ks = strconv.FormatInt(tk, 10)
			case float64:
				s := strconv.FormatFloat(tk, 'g', -1, 32)
				switch s {
				case "+Inf":
					s = ".inf"
				case "-Inf":
					s = "-.inf"
				case "NaN":
					s = ".nan"
				}
				ks = s
			case bool:
				if tk {
					ks = "true"
				} else {
					ks = "false"
				}
			default:
				return nil, fmt.Errorf("unsupported map key of type: %s, key: %+#v, value: %+#v", reflect.TypeOf(k), k, v)
			}
			cv, err := conv(v)
			if err != nil {
				return nil, err
			}
			m[ks] = cv
		}
		return m, nil
	case []interface{}:
		a := make([]interface{}, len(t))
		for i, v := range t {
			cv, err := conv(v)
			if err != nil {
				return nil, err
			}
			a[i] = cv
		}
		return a, nil
	}
	return o, nil
}

func y2j(y []byte, strict bool) ([]byte, error) {
	var o interface{}
	var err error
	if strict {
		err = yaml.UnmarshalStrict(y, &o)
	} else {
		err = yaml.Unmarshal(y, &o)
	}
	if err != nil {
		return nil, err
	}
	c, err := conv(o)
	if err != nil {
		return nil, err
	}
	return json.Marshal(c)
}

// tag renders what the API server sees: int64 if the JSON number fits, else float64.
func tag(v interface{}) interface{} {
	switch t := v.(type) {
	case map[string]interface{}:
		for k, x := range t {
			t[k] = tag(x)
		}
		return t
	case []interface{}:
		for i, x := range t {
			t[i] = tag(x)
		}
		return t
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return "i:" + strconv.FormatInt(i, 10)
		}
		f, _ := t.Float64()
		if math.IsInf(f, 0) {
			return "f:inf"
		}
		return "f:" + strconv.FormatFloat(f, 'g', -1, 64)
	case string:
		return "s:" + t
	}
	return v
}

func run(y []byte, strict bool) map[string]interface{} {
	j, err := y2j(y, strict)
	if err != nil {
		return map[string]interface{}{"error": err.Error()}
	}
	d := json.NewDecoder(bytes.NewReader(j))
	d.UseNumber()
	var v interface{}
	if err := d.Decode(&v); err != nil {
		return map[string]interface{}{"jsonerror": err.Error()}
	}
	return map[string]interface{}{"value": tag(v)}
}

func main() {
	data, _ := ioutil.ReadAll(os.Stdin)
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	for _, doc := range strings.Split(string(data), "\n#####\n") {
		out := map[string]interface{}{"lenient": run([]byte(doc), false), "strict": run([]byte(doc), true)}
		b, _ := json.Marshal(out)
		w.Write(b)
		w.WriteString("\n")
	}
}
