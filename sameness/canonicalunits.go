package sameness

import (
	"math/big"
	"strconv"
	"strings"
)

// Durations and sizes in the normal form: a number and a unit spelled
// without ambiguity are the value in the unit's base (\sec:120 for "2
// min"); a unit that may mean two things ("5m": minutes, metres or
// million) stays as written, and so does every unit not listed here.

// readPercents writes "percent", "per cent" and a number's "%" as one "%"
// after the number: "5 percent", "five per cent" and "5%" are 5%.
func readPercents(ts []cToken) []cToken {
	out := ts[:0]
	for i := 0; i < len(ts); i++ {
		t := ts[i]
		switch {
		case t.kind == wordTok && t.s == "percent":
			t.kind, t.s = otherTok, "%"
		case t.kind == wordTok && t.s == "per" && i+1 < len(ts) && ts[i+1].kind == wordTok && ts[i+1].s == "cent" && !t.comma:
			t = cToken{s: "%", raw: "per cent", kind: otherTok, comma: ts[i+1].comma, colon: ts[i+1].colon}
			i++
		}
		if n := len(out); n > 0 && t.kind == otherTok && t.s == "%" && out[n-1].kind == numTok && !out[n-1].comma {
			out[n-1].kind, out[n-1].s = otherTok, out[n-1].s+"%"
			out[n-1].comma, out[n-1].colon = t.comma, t.colon
			continue
		}
		out = append(out, t)
	}
	return out
}

// measure is a unit of duration or size: the base its values are written in
// (\sec:, \bytes:, \kB: ...) and how many of the base one of it is.
type measure struct {
	base   string
	factor string // a rational: "60", "1/1000"
}

// unitAbbrevs are the short spellings of units, matched as written (case
// counts: "MB" is megabytes, "Mb" megabits, which is not read). "m" is
// not one: minutes, metres or million.
var unitAbbrevs = map[string]measure{
	"ns": {"sec", "1/1000000000"}, "µs": {"sec", "1/1000000"}, "μs": {"sec", "1/1000000"}, "ms": {"sec", "1/1000"},
	"s": {"sec", "1"}, "sec": {"sec", "1"}, "secs": {"sec", "1"}, "min": {"sec", "60"}, "mins": {"sec", "60"},
	"h": {"sec", "3600"}, "hr": {"sec", "3600"}, "hrs": {"sec", "3600"}, "d": {"sec", "86400"},
	"wk": {"sec", "604800"}, "wks": {"sec", "604800"}, "mo": {"month", "1"}, "yr": {"year", "1"}, "yrs": {"year", "1"},
	"KiB": {"bytes", "1024"}, "MiB": {"bytes", "1048576"}, "GiB": {"bytes", "1073741824"}, "TiB": {"bytes", "1099511627776"},
	"KB": {"kB", "1"}, "kB": {"kB", "1"}, "MB": {"MB", "1"}, "GB": {"GB", "1"}, "TB": {"TB", "1"}, "PB": {"PB", "1"},
}

// unitNames are the units spelled as words, matched in any case. Months
// and years are kept apart from days (their length varies); decimal
// sizes from each other and from bytes (a kilobyte is 1000 or 1024 bytes,
// as the writer means).
var unitNames = func() map[string]measure {
	m := map[string]measure{}
	for _, line := range []string{
		"sec 1/1000000000 nanosecond nanoseconds", "sec 1/1000000 microsecond microseconds",
		"sec 1/1000 millisecond milliseconds msec msecs", "sec 1 second seconds sec secs", "sec 60 minute minutes min mins",
		"sec 3600 hour hours hr hrs", "sec 86400 day days", "sec 604800 week weeks", "month 1 month months",
		"year 1 year years yr yrs", "bytes 1 byte bytes", "bytes 1024 kibibyte kibibytes", "bytes 1048576 mebibyte mebibytes",
		"bytes 1073741824 gibibyte gibibytes", "bytes 1099511627776 tebibyte tebibytes", "kB 1 kilobyte kilobytes",
		"MB 1 megabyte megabytes", "GB 1 gigabyte gigabytes", "TB 1 terabyte terabytes", "PB 1 petabyte petabytes",
	} {
		f := strings.Fields(line)
		for _, w := range f[2:] {
			m[w] = measure{f[0], f[1]}
		}
	}
	return m
}()

// readUnits writes a number and its unit as the value in the unit's base:
// "2 min", "2 minutes" and "120 seconds" are \sec:120.
func readUnits(ts []cToken) []cToken {
	out := ts[:0]
	for i := 0; i < len(ts); i++ {
		t := ts[i]
		if t.kind == numTok && i+1 < len(ts) && !t.comma {
			u := unitAbbrevs[ts[i+1].raw]
			if ts[i+1].kind == wordTok && unitNames[ts[i+1].s].base != "" {
				u = unitNames[ts[i+1].s]
			}
			if u.base == "" {
				out = append(out, t)
				continue
			}
			if v, ok := scaled(t.s, u.factor); ok {
				m := merged(ts[i:i+2], `\`+u.base+":"+v)
				m.kind = madeTok
				out = append(out, m)
				i++
				continue
			}
		}
		out = append(out, t)
	}
	return out
}

// scaled returns the number n times factor, in decimals, false when n is
// too long to be worth it. Whole numbers of up to six digits times a
// whole factor are worked out without big numbers.
func scaled(n, factor string) (string, bool) {
	if len(n) <= 6 && isDigits(n) {
		if f, err := strconv.ParseInt(factor, 10, 64); err == nil {
			v, _ := strconv.ParseInt(n, 10, 64)
			return strconv.FormatInt(v*f, 10), true
		}
	}
	v, ok := ratOf(n)
	if !ok {
		return "", false
	}
	f, _ := new(big.Rat).SetString(factor)
	return decimalString(v.Mul(v, f)), true
}

// ratOf reads a number's digits as a rational, false when they are too
// long to be worth it (a number of 40 digits is compared as written).
func ratOf(s string) (*big.Rat, bool) {
	if len(s) > 40 || s == "" {
		return nil, false
	}
	return new(big.Rat).SetString(s)
}

// decimalString writes r in decimals when it has a finite expansion
// ("0.001", "1500000"), as a fraction otherwise ("1/3").
func decimalString(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	d := new(big.Int).Set(r.Denom())
	digits := 0
	for _, p := range []int64{2, 5} {
		n, q, m := 0, new(big.Int), new(big.Int)
		for {
			q.QuoRem(d, big.NewInt(p), m)
			if m.Sign() != 0 {
				break
			}
			d.Set(q)
			n++
		}
		digits = max(digits, n)
	}
	if d.Cmp(big.NewInt(1)) != 0 {
		return r.RatString()
	}
	return strings.TrimRight(r.FloatString(digits), "0")
}
