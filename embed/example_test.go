package embed_test

import (
	"context"
	"fmt"

	"github.com/vaultmem/vaultmem/embed"
)

func ExampleFitLSA() {
	notes := []string{
		"Caroline went to a pottery class and made a bowl.",
		"Melanie painted a sunset over the lake.",
		"Caroline's pottery class is on Tuesdays; she made a vase.",
		"Melanie's painting class: she paints landscapes of the lake.",
		"The car needs new tyres before the road trip.",
		"Road trip planned: check the car and tyres.",
	}
	m, err := embed.FitLSA(context.Background(), notes, embed.LSAOptions{Dimensions: 3})
	if err != nil {
		fmt.Println(err)
		return
	}
	vs, _ := m.Embed(context.Background(), []string{"Who paints?", notes[1], notes[4]})
	cos := func(a, b []float32) (s float32) {
		for i := range a {
			s += a[i] * b[i]
		}
		return s
	}
	fmt.Println(m.Dimensions())
	fmt.Println(cos(vs[0], vs[1]) > 0.9, cos(vs[0], vs[2]) < 0.1)
	// Output:
	// 3
	// true true
}
