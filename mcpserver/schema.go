package mcpserver

import (
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
)

// schemaFor is the input schema of a tool taking T, as the SDK would infer
// it, changed by each patch: enums, bounds and types the Go types cannot
// say. It panics when T has no schema: a programming error, caught by any
// test that starts a server.
func schemaFor[T any](patches ...func(*jsonschema.Schema)) *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(fmt.Sprintf("mcpserver: schema of %T: %v", *new(T), err))
	}
	for _, p := range patches {
		p(s)
	}
	return s
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

// plainString makes an optional property a plain string: a pointer field
// is inferred as ["null", "string"], which some clients reject.
func plainString(name string) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) {
		p := property(s, name)
		p.Types, p.Type = nil, "string"
	}
}
