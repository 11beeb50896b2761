package redact

// ShapeNames are the names of the shapes, once each, in the table's order.
func ShapeNames() []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range shapes {
		if !seen[s.name] {
			seen[s.name] = true
			out = append(out, s.name)
		}
	}
	return out
}

// Gap is the least text kept between two masks of dense secrets.
const Gap = gap
