package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultMaxMessageSize is the longest line, in bytes, a [Transport]
// forwards when [TransportOptions.MaxMessageSize] is 0: 16 MiB, the SDK's
// own default.
const DefaultMaxMessageSize = mcp.DefaultMaxLineLength

// MaxDepth is how deeply arrays and objects may nest in a message a
// [Transport] forwards. It is the SDK's own bound, past which the SDK ends
// the session instead of answering, so it cannot be raised.
const MaxDepth = 1000

// TransportOptions configure a [Transport]. The zero value is ready to use.
type TransportOptions struct {
	// MaxMessageSize is the longest line, not counting its newline, that is
	// read; a longer one is skipped unbuffered to its end and answered with
	// -32600. 0 or less means DefaultMaxMessageSize.
	MaxMessageSize int
	// OnReject, if set, is called for each line that was answered with an
	// error or dropped instead of forwarded, from the transport's reading
	// goroutine, one call at a time. It must not block for long: reading
	// waits for it.
	OnReject func(*RejectError)
}

// RejectError describes an input line a [Transport] did not forward.
type RejectError struct {
	// Line is the line's number in the input, from 1.
	Line int64
	// Code is the JSON-RPC error code answered, or 0 when the line was a
	// malformed response, which is dropped: a response is never answered,
	// so that two peers cannot bounce errors back and forth.
	Code int64
	// Message is the error message answered, or why the line was dropped.
	Message string
}

func (e *RejectError) Error() string {
	if e.Code == 0 {
		return fmt.Sprintf("mcp input line %d dropped: %s", e.Line, e.Message)
	}
	return fmt.Sprintf("mcp input line %d answered %d: %s", e.Line, e.Code, e.Message)
}

// Transport is an [mcp.Transport] of newline-delimited JSON-RPC over a
// reader and a writer, like [mcp.StdioTransport], that survives bad input:
// a line that is not JSON, not a JSON-RPC message, a batch, nested deeper
// than [MaxDepth] or longer than the maximum size is answered with a
// JSON-RPC error (-32700 or -32600), a blank line is skipped, and reading
// goes on. The SDK would instead end the session. Every other message
// reaches the SDK as it was, trimmed of surrounding whitespace.
//
// Make one with [NewTransport]; it serves one [mcp.Server.Run] or
// [mcp.Server.Connect].
type Transport struct {
	r    io.Reader
	w    io.Writer
	opts TransportOptions

	mu sync.Mutex
	f  *filter // set by Connect
}

// NewTransport returns a transport reading messages from r and writing
// them to w, one per line. Closing the connection closes r if it is an
// io.Closer (as mcp.StdioTransport closes stdin) but never w.
func NewTransport(r io.Reader, w io.Writer, o TransportOptions) *Transport {
	if o.MaxMessageSize <= 0 {
		o.MaxMessageSize = DefaultMaxMessageSize
	}
	return &Transport{r: r, w: w, opts: o}
}

// Connect implements [mcp.Transport]. It starts the goroutine that reads
// r, which ends when a read of r fails (at EOF too, after which the
// connection's Read reports io.EOF) or, once the connection is closed, when
// the read under way returns; a read of stdin cannot be interrupted, so
// Close does not wait for it. Writes of the SDK and error answers go to w
// one whole line per Write call, under one lock. Connect fails if called
// twice.
func (t *Transport) Connect(ctx context.Context) (mcp.Connection, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.f != nil {
		return nil, errors.New("mcpserver: transport already connected")
	}
	pr, pw := io.Pipe()
	out := &lineWriter{w: t.w}
	t.f = &filter{in: bufio.NewReaderSize(t.r, 64<<10), out: out, sdk: pw,
		max: t.opts.MaxMessageSize, onReject: t.opts.OnReject, done: make(chan struct{})}
	go t.f.run()
	// The SDK frames and decodes what the filter lets through; the limit is
	// the filter's, which never buffers a line whole when it is too long.
	return (&mcp.IOTransport{Reader: input{pr, t.r}, Writer: out, MaxLineLength: -1}).Connect(ctx)
}

// input is what the SDK reads: the filter's output. Closing it stops the
// filter and closes the real input.
type input struct {
	*io.PipeReader
	r io.Reader
}

func (in input) Close() error {
	in.PipeReader.Close()
	if c, ok := in.r.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// lineWriter serialises whole-line writes of the SDK and the filter.
type lineWriter struct {
	mu     sync.Mutex
	w      io.Writer
	closed bool
}

func (l *lineWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return 0, mcp.ErrConnectionClosed
	}
	return l.w.Write(p)
}

func (l *lineWriter) Close() error {
	l.mu.Lock()
	l.closed = true
	l.mu.Unlock()
	return nil
}

// filter reads lines, answers the bad ones and passes the rest to the SDK.
type filter struct {
	in       *bufio.Reader
	out      *lineWriter
	sdk      *io.PipeWriter
	max      int
	onReject func(*RejectError)
	done     chan struct{} // closed when run returns

	line []byte // the line being read, reused
	n    int64  // its number
	peak int    // the most bytes line ever held, for tests
}

// keepLine is the largest line buffer kept for the next line.
const keepLine = 1 << 20

func (f *filter) run() {
	defer close(f.done)
	for {
		line, tooLong, readErr := f.next()
		var err error
		switch {
		case readErr != nil && readErr != io.EOF:
			// A line cut short by a failed read is not a message.
		case tooLong:
			err = f.reject(nil, jsonrpc.CodeInvalidRequest,
				fmt.Sprintf("Invalid Request: message longer than %d bytes", f.max))
		default:
			err = f.handle(line)
		}
		if cap(f.line) > keepLine {
			f.line = nil
		}
		if err == nil {
			err = readErr
		}
		if err != nil {
			if err == io.EOF {
				f.sdk.Close()
			} else {
				f.sdk.CloseWithError(err)
			}
			return
		}
	}
}

// next reads the next line, without its newline. A line longer than f.max
// is consumed but not kept: tooLong is set and line is empty.
func (f *filter) next() (line []byte, tooLong bool, err error) {
	f.n++
	f.line = f.line[:0]
	for {
		chunk, err := f.in.ReadSlice('\n')
		if !tooLong {
			if len(f.line)+len(chunk) > f.max+1 { // +1: the newline
				tooLong, f.line = true, f.line[:0]
			} else {
				f.line = appendBounded(f.line, chunk, f.max+1)
				f.peak = max(f.peak, cap(f.line))
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		line = bytes.TrimSuffix(f.line, []byte("\n"))
		if len(line) > f.max {
			tooLong, line = true, nil
		}
		return line, tooLong, err
	}
}

// appendBounded appends chunk to buf, growing it to at most limit bytes.
func appendBounded(buf, chunk []byte, limit int) []byte {
	if need := len(buf) + len(chunk); need > cap(buf) {
		grown := make([]byte, len(buf), min(max(need, 2*cap(buf)), limit))
		copy(grown, buf)
		buf = grown
	}
	return append(buf, chunk...)
}

// handle forwards, answers or drops one line. Its error means the
// connection is over.
func (f *filter) handle(line []byte) error {
	msg := bytes.Trim(line, " \t\r\n")
	if len(msg) == 0 {
		return nil
	}
	v := inspect(msg)
	switch {
	case v.message == "":
		// The SDK rejects trailing spaces, hence one newline after the
		// trimmed message. The pipe hands it over without copying it whole.
		_, err := f.sdk.Write(append(msg, '\n'))
		return err
	case v.code == 0:
		f.report(&RejectError{Line: f.n, Message: v.message})
		return nil
	}
	return f.reject(v.id, v.code, v.message)
}

// reject answers the current line with a JSON-RPC error.
func (f *filter) reject(id json.RawMessage, code int64, message string) error {
	message = truncate(message, 300)
	f.report(&RejectError{Line: f.n, Code: code, Message: message})
	if id == nil {
		id = json.RawMessage("null")
	}
	// Not jsonrpc.EncodeMessage: it leaves out a null id, which JSON-RPC
	// requires in a response.
	data, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *jsonrpc.Error  `json:"error"`
	}{"2.0", id, &jsonrpc.Error{Code: code, Message: message}})
	if err != nil {
		return fmt.Errorf("encode error response: %w", err)
	}
	if _, err := f.out.Write(append(data, '\n')); err != nil {
		return fmt.Errorf("write error response: %w", err)
	}
	return nil
}

func (f *filter) report(e *RejectError) {
	if f.onReject != nil {
		f.onReject(e)
	}
}
