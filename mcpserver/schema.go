package mcpserver

import (
	"fmt"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"
)

// schemaFor is the input schema of a tool taking T, as the SDK would infer
// it, with no property nullable (see notNull), then changed by each patch:
// enums and bounds the Go types cannot say. It panics when T has no
// schema: a programming error, caught by any test that starts a server.
func schemaFor[T any](patches ...func(*jsonschema.Schema)) *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(fmt.Sprintf("mcpserver: schema of %T: %v", *new(T), err))
	}
	notNull(s)
	for _, p := range patches {
		p(s)
	}
	return s
}

// notNull makes every property of s, at any depth, a plain type: the
// inference gives a slice ["null", "array"] and a pointer ["null",
// "string"], which strict clients reject or cannot fill (an inspector
// offers no way to type an array into a nullable field), and a required
// property must never be null. An argument left out is what "no value"
// means to every tool.
func notNull(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if slices.Contains(s.Types, "null") {
		types := slices.DeleteFunc(slices.Clone(s.Types), func(t string) bool { return t == "null" })
		if len(types) == 1 {
			s.Types, s.Type = nil, types[0]
		} else {
			s.Types = types
		}
	}
	for _, p := range s.Properties {
		notNull(p)
	}
	notNull(s.Items)
	notNull(s.AdditionalProperties)
}

// property returns the schema of s's property name; it panics when there
// is none (a misspelt name in this package).
func property(s *jsonschema.Schema, name string) *jsonschema.Schema {
	p, ok := s.Properties[name]
	if !ok {
		panic("mcpserver: no property " + name)
	}
	return p
}

// enum limits a string property to values.
func enum(name string, values ...string) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) {
		p := property(s, name)
		for _, v := range values {
			p.Enum = append(p.Enum, v)
		}
	}
}

// bounds limits an integer property to [lo, hi].
func bounds(name string, lo, hi int) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) {
		p := property(s, name)
		l, h := float64(lo), float64(hi)
		p.Minimum, p.Maximum = &l, &h
	}
}
