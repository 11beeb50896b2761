package embed_test

import (
	"context"
	"encoding/binary"
	"hash/crc32"
	"testing"

	"github.com/vaultmem/vaultmem/embed"
)

// FuzzUnmarshalLSA checks that no input makes UnmarshalLSA panic, and
// that what it accepts is a usable model that encodes back to the same
// bytes. Random bytes rarely pass the checksum, so each input is also
// tried with a valid checksum appended, which lets the fuzzer reach the
// structural checks behind it.
func FuzzUnmarshalLSA(f *testing.F) {
	for _, docs := range [][]string{nil, musicCorpus, {"red apple", "red cherry", "green apple"}} {
		m, err := embed.FitLSA(context.Background(), docs, embed.LSAOptions{Dimensions: 2})
		if err != nil {
			f.Fatal(err)
		}
		b, _ := m.MarshalBinary()
		f.Add(b)
		f.Add(b[:len(b)-4]) // without its checksum: the fuzzer's second try restores it
	}
	f.Add([]byte("VMLSA\x01"))
	f.Fuzz(func(t *testing.T, b []byte) {
		check(t, b)
		castagnoli := crc32.MakeTable(crc32.Castagnoli)
		check(t, binary.LittleEndian.AppendUint32(b[:len(b):len(b)], crc32.Checksum(b, castagnoli)))
	})
}

func check(t *testing.T, b []byte) {
	m, err := embed.UnmarshalLSA(b)
	if err != nil {
		return
	}
	again, err := m.MarshalBinary()
	if err != nil || string(again) != string(b) {
		t.Fatalf("accepted input does not encode back to itself")
	}
	vs, err := m.Embed(context.Background(), []string{"guitar melody", "数据库", ""})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		if len(v) != m.Dimensions() {
			t.Fatalf("vector of %d dimensions, want %d", len(v), m.Dimensions())
		}
	}
	_ = m.ID()
	_ = m.Drift([]string{"guitar"})
}
