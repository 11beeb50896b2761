package config

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

var durationType = reflect.TypeFor[time.Duration]()

// checkScalars refuses, under the config node n decoded into a value of
// type t (key names it in messages), the numbers the YAML decoder would
// take silently for something else (a fraction where a whole number goes:
// it truncates 1.5 to 1; 1e7 is whole, and fine), and words the
// decoder's refusal of a bare number where a duration goes ("cannot
// unmarshal !!int") as what to write instead. Everything else is left to
// the decoder and checkConfig.
func checkScalars(n *yaml.Node, t reflect.Type, key, file string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t == durationType:
		if n.Kind == yaml.ScalarNode && (n.ShortTag() == "!!int" || n.ShortTag() == "!!float") {
			return fmt.Errorf("%s:%d: %s: %s has no unit: give a duration such as 8s, 5m or 24h (0s for none)", file, n.Line, key, n.Value)
		}
		return nil
	case t.Kind() >= reflect.Int && t.Kind() <= reflect.Uint64:
		var f float64
		if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!float" && (n.Decode(&f) != nil || f != math.Trunc(f) || math.IsInf(f, 0)) {
			return fmt.Errorf("%s:%d: %s: %s is not a whole number", file, n.Line, key, n.Value)
		}
		return nil
	case t.Kind() == reflect.Slice && n.Kind == yaml.SequenceNode:
		for _, item := range n.Content {
			if err := checkScalars(item, t.Elem(), key, file); err != nil {
				return err
			}
		}
	case t.Kind() == reflect.Map && n.Kind == yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			if err := checkScalars(n.Content[i+1], t.Elem(), key+"."+n.Content[i].Value, file); err != nil {
				return err
			}
		}
	case t.Kind() == reflect.Struct && n.Kind == yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			name := n.Content[i].Value
			if f, ok := yamlField(t, name); ok {
				if err := checkScalars(n.Content[i+1], f.Type, strings.TrimPrefix(key+"."+name, "."), file); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// yamlField is the field of the struct type t that the YAML key name
// decodes into, looking into inline fields as the decoder does.
func yamlField(t reflect.Type, name string) (reflect.StructField, bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if strings.Contains(opts, "inline") {
			if g, ok := yamlField(f.Type, name); ok {
				return g, true
			}
			continue
		}
		if tag == "" {
			tag = strings.ToLower(f.Name)
		}
		if tag == name && f.IsExported() {
			return f, true
		}
	}
	return reflect.StructField{}, false
}
