package index

import (
	"errors"
	"fmt"
	"strconv"
)

// Bounds on what a caller may ask for in one call: more would only flood
// an agent's context (or the machine's memory) and is refused with a clear
// error, never truncated silently.
const (
	// MaxLimit is the most items one page or one search may hold.
	MaxLimit = 1000
	// MaxQueryBytes is the longest query text.
	MaxQueryBytes = 10_000
)

// Errors for requests out of bounds.
var (
	// ErrBadPage is returned for a page whose offset or limit is out of
	// bounds, or a cursor this package did not make.
	ErrBadPage = errors.New("index: invalid page")
	// ErrBadQuery is returned for a query over MaxQueryBytes or a search
	// deeper than the index ranks.
	ErrBadQuery = errors.New("index: invalid query")
)

// Page asks for part of a list: at most Limit items from Offset on. The
// zero value asks for the first DefaultLimit items.
type Page struct {
	Offset, Limit int
}

// DefaultLimit is a Page's limit when none is given.
const DefaultLimit = 100

// Check returns p with its default limit, or an error matching ErrBadPage
// for a negative offset or a limit over MaxLimit.
func (p Page) Check() (Page, error) {
	switch {
	case p.Offset < 0:
		return p, fmt.Errorf("%w: offset %d is negative", ErrBadPage, p.Offset)
	case p.Limit < 0 || p.Limit > MaxLimit:
		return p, fmt.Errorf("%w: limit %d is out of range: from 1 to %d", ErrBadPage, p.Limit, MaxLimit)
	case p.Limit == 0:
		p.Limit = DefaultLimit
	}
	return p, nil
}

// PageInfo says where a page lies in its list: how many items the whole
// list has, and how many come after the page. NextOffset is where the next
// page starts, 0 when there is none; Cursor is the same as an opaque string
// for MCP clients ("" when there is none).
type PageInfo struct {
	Total      int    `json:"total"`
	More       int    `json:"more"`
	NextOffset int    `json:"next_offset,omitempty"`
	NextCursor string `json:"next_cursor,omitempty"`
}

// Paginate returns the page p (see [Page.Check]) of all, with where it lies.
func Paginate[T any](all []T, p Page) ([]T, PageInfo, error) {
	p, err := p.Check()
	if err != nil {
		return nil, PageInfo{}, err
	}
	start := min(p.Offset, len(all))
	end := min(start+p.Limit, len(all))
	return all[start:end:end], pageInfo(len(all), start, end-start), nil
}

// pageInfo is where a page of n items from offset lies in a list of total.
func pageInfo(total, offset, n int) PageInfo {
	end := min(offset+n, total)
	info := PageInfo{Total: total, More: max(total-end, 0)}
	if info.More > 0 {
		info.NextOffset = end
		info.NextCursor = strconv.Itoa(end)
	}
	return info
}

// ParseCursor turns a cursor of [PageInfo] back into an offset; "" is the
// start.
func ParseCursor(cursor string) (int, error) {
	if cursor == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(cursor)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%w: cursor %q is not one this server gave", ErrBadPage, cursor)
	}
	return n, nil
}
