package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// harness is an mcp.Server served over a Transport on two pipes, with the
// test as the client writing lines and reading answers.
type harness struct {
	t       *testing.T
	tr      *Transport
	lines   chan []byte // to the writer goroutine, in order
	wrote   chan struct{}
	inW     *io.PipeWriter
	outW    *io.PipeWriter
	out     *bufio.Reader
	rejects chan *RejectError
	panics  chan *PanicError
	// blocked is closed when the block tool starts, cancelled when its
	// context ends.
	blocked, cancelled chan struct{}
	closeIn, stopped   sync.Once
	ran                chan struct{} // closed when Run returned runErr
	runErr             error
}

type echoArgs struct {
	Text  string `json:"text"`
	Extra any    `json:"extra,omitempty"`
}

// start serves a test server and initializes the session: lines 1 and 2 of
// the input are initialize and notifications/initialized.
func start(t *testing.T, o TransportOptions) *harness {
	t.Helper()
	h := &harness{t: t, lines: make(chan []byte, 1024), wrote: make(chan struct{}),
		rejects: make(chan *RejectError, 1024), panics: make(chan *PanicError, 16),
		blocked: make(chan struct{}), cancelled: make(chan struct{}), ran: make(chan struct{})}
	o.OnReject = func(e *RejectError) { h.rejects <- e }
	srv := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	srv.AddReceivingMiddleware(recoverPanics(func(pe *PanicError) { h.panics <- pe }))
	mcp.AddTool(srv, &mcp.Tool{Name: "echo"}, func(_ context.Context, _ *mcp.CallToolRequest, in echoArgs) (*mcp.CallToolResult, echoArgs, error) {
		return nil, in, nil
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "panic"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		panic("boom")
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "ask"}, func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		return nil, nil, req.Session.Ping(ctx, nil)
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "block"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		close(h.blocked)
		<-ctx.Done()
		close(h.cancelled)
		return nil, nil, ctx.Err()
	})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	h.inW, h.outW, h.out = inW, outW, bufio.NewReaderSize(outR, 1<<20)
	h.tr = NewTransport(inR, outW, o)
	go func() {
		h.runErr = srv.Run(context.Background(), h.tr)
		close(h.ran)
	}()
	go func() {
		defer close(h.wrote)
		for l := range h.lines {
			if _, err := inW.Write(l); err != nil {
				for range h.lines {
				}
			}
		}
	}()
	t.Cleanup(h.stop)

	h.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if r := h.recv(); string(r.ID) != "1" || r.Error != nil {
		t.Fatalf("initialize answered %s", r.raw)
	}
	h.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return h
}

// stop ends the input, waits for the server to return and checks that it
// returned cleanly and that the reading goroutine ended.
func (h *harness) stop() {
	h.stopped.Do(func() {
		go io.Copy(io.Discard, h.out) // unblock the server's last writes
		h.closeInput()
		<-h.ran
		if h.runErr != nil {
			h.t.Errorf("Run: %v", h.runErr)
		}
		<-h.tr.f.done
		h.outW.Close()
	})
}

// closeInput ends the input after the lines sent so far.
func (h *harness) closeInput() {
	h.closeIn.Do(func() {
		close(h.lines)
		<-h.wrote
		h.inW.Close()
	})
}

// send queues line and a newline for the server.
func (h *harness) send(line string) { h.lines <- []byte(line + "\n") }

type reply struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Result  json.RawMessage `json:"result"`
	Error   *jsonrpc.Error  `json:"error"`
	raw     []byte
}

// recv reads the server's next line, which must be one JSON-RPC message.
func (h *harness) recv() reply {
	h.t.Helper()
	line, err := h.out.ReadBytes('\n')
	if err != nil {
		h.t.Fatalf("read answer: %v", err)
	}
	var r reply
	if err := json.Unmarshal(line, &r); err != nil || r.JSONRPC != "2.0" {
		h.t.Fatalf("answer %q is not a JSON-RPC message: %v", line, err)
	}
	r.raw = line
	return r
}

func echoCall(id int, text string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"text":%q}}}`, id, text)
}

// expectEcho reads the answer to echoCall(id, text).
func (h *harness) expectEcho(id int, text string) {
	h.t.Helper()
	r := h.recv()
	var res struct{ StructuredContent echoArgs }
	if string(r.ID) != fmt.Sprint(id) || r.Error != nil || json.Unmarshal(r.Result, &res) != nil || res.StructuredContent.Text != text {
		h.t.Fatalf("got %s, want the echo of %q with id %d", r.raw, text, id)
	}
}

// expectError reads an error answer.
func (h *harness) expectError(code int64, id string) reply {
	h.t.Helper()
	r := h.recv()
	if r.Error == nil || r.Error.Code != code || string(r.ID) != id || r.Result != nil {
		h.t.Fatalf("got %s, want error %d with id %s", r.raw, code, id)
	}
	if !strings.Contains(string(r.raw), `"id":`) {
		h.t.Fatalf("answer %s has no id", r.raw)
	}
	return r
}

// noRejects checks that no line was rejected since the last check.
func (h *harness) noRejects() {
	h.t.Helper()
	select {
	case e := <-h.rejects:
		h.t.Fatalf("unexpected reject: %v", e)
	default:
	}
}

func TestTransportAnswersBadLines(t *testing.T) {
	deep := func(open, inner, close string, n int) string {
		return strings.Repeat(open, n) + inner + strings.Repeat(close, n)
	}
	tests := []struct {
		name, line string
		code       int64
		id         string // answered
	}{
		{"not JSON", "hello", jsonrpc.CodeParseError, "null"},
		{"truncated", `{"jsonrpc":"2.0","id":5,`, jsonrpc.CodeParseError, "null"},
		{"two values", `{"jsonrpc":"2.0","id":5,"method":"tools/list"} {}`, jsonrpc.CodeParseError, "null"},
		{"invalid UTF-8", "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/list\",\"params\":{\"x\":\"\xff\"}}", jsonrpc.CodeParseError, "null"},
		{"10000 deep arrays", deep("[", "", "]", 10000), jsonrpc.CodeParseError, "null"},
		{"10000 deep objects", deep(`{"a":`, "1", "}", 10000), jsonrpc.CodeParseError, "null"},
		{"1001 deep request", `{"jsonrpc":"2.0","id":6,"method":"tools/list","params":{"a":` + deep("[", "", "]", 999) + "}}", jsonrpc.CodeParseError, "null"},
		{"empty batch", "[]", jsonrpc.CodeInvalidRequest, "null"},
		{"batch", `[{"jsonrpc":"2.0","id":7,"method":"tools/list"}]`, jsonrpc.CodeInvalidRequest, "null"},
		{"number", "5", jsonrpc.CodeInvalidRequest, "null"},
		{"string", `"tools/list"`, jsonrpc.CodeInvalidRequest, "null"},
		{"null", "null", jsonrpc.CodeInvalidRequest, "null"},
		{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":8,"method":"tools/list"}`, jsonrpc.CodeInvalidRequest, "8"},
		{"no jsonrpc", `{"id":"a","method":"tools/list"}`, jsonrpc.CodeInvalidRequest, `"a"`},
		{"JSONRPC upper case", `{"JSONRPC":"2.0","id":"a","method":"tools/list"}`, jsonrpc.CodeInvalidRequest, `"a"`},
		{"id object", `{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}`, jsonrpc.CodeInvalidRequest, "null"},
		{"id array", `{"jsonrpc":"2.0","id":[1],"method":"tools/list"}`, jsonrpc.CodeInvalidRequest, "null"},
		{"id bool", `{"jsonrpc":"2.0","id":true,"method":"tools/list"}`, jsonrpc.CodeInvalidRequest, "null"},
		{"id fraction", `{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}`, jsonrpc.CodeInvalidRequest, "1.5"},
		{"id too big", `{"jsonrpc":"2.0","id":18446744073709551616,"method":"tools/list"}`, jsonrpc.CodeInvalidRequest, "18446744073709551616"},
		{"no method", `{"jsonrpc":"2.0","id":9}`, jsonrpc.CodeInvalidRequest, "9"},
		{"no method, params", `{"jsonrpc":"2.0","id":"x","params":{}}`, jsonrpc.CodeInvalidRequest, `"x"`},
		{"no method, no id", `{"jsonrpc":"2.0"}`, jsonrpc.CodeInvalidRequest, "null"},
		{"method number", `{"jsonrpc":"2.0","id":10,"method":5}`, jsonrpc.CodeInvalidRequest, "10"},
		{"method null", `{"jsonrpc":"2.0","id":10,"method":null}`, jsonrpc.CodeInvalidRequest, "10"},
		{"error member not object", `{"jsonrpc":"2.0","id":11,"method":"tools/list","error":"x"}`, jsonrpc.CodeInvalidRequest, "11"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := start(t, TransportOptions{})
			h.send(tc.line)
			h.send(echoCall(100, "after"))
			h.expectError(tc.code, tc.id)
			h.expectEcho(100, "after")
			if e := <-h.rejects; e.Code != tc.code || e.Line != 3 {
				t.Errorf("reject: got %+v, want code %d on line 3", e, tc.code)
			}
			h.noRejects()
		})
	}
}

func TestTransportForwards(t *testing.T) {
	deep := `{"a":` + strings.Repeat("[", 996) + strings.Repeat("]", 996) + "}" // 1000 deep in all
	tests := []struct{ name, line string }{
		{"trailing spaces", echoCall(100, "x") + " \t "},
		{"leading spaces", "  " + echoCall(100, "x")},
		{"CRLF", echoCall(100, "x") + "\r"},
		{"1000 deep", `{"jsonrpc":"2.0","id":100,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x","extra":` + deep + `}}}`},
		{"string id", strings.Replace(echoCall(0, "x"), `"id":0`, `"id":"100"`, 1)},
		{"largest id", strings.Replace(echoCall(0, "x"), `"id":0`, `"id":9007199254740992`, 1)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := start(t, TransportOptions{})
			h.send(tc.line)
			r := h.recv()
			if r.Error != nil || !strings.Contains(tc.line, `"id":`+string(r.ID)+`,`) {
				t.Fatalf("got %s, want the answer to the request", r.raw)
			}
			h.noRejects()
		})
	}
}

func TestTransportSkipsBlankLines(t *testing.T) {
	h := start(t, TransportOptions{})
	for _, l := range []string{"", " ", "\t\r", "\r"} {
		h.send(l)
	}
	h.send(echoCall(100, "after"))
	h.expectEcho(100, "after")
	h.noRejects()
}

func TestTransportDropsBadResponses(t *testing.T) {
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":null,"result":{}}`,
		`{"jsonrpc":"2.0","result":{}}`,
		`{"jsonrpc":"2.0","id":{"a":1},"error":{"code":1,"message":"m"}}`,
		`{"jsonrpc":"2.0","id":1.5,"result":{}}`,
		`{"jsonrpc":"2.0","id":3,"error":"boom"}`,
		`{"jsonrpc":"1.0","id":3,"result":{}}`,
	} {
		t.Run(line, func(t *testing.T) {
			h := start(t, TransportOptions{})
			h.send(line)
			h.send(echoCall(100, "after"))
			h.expectEcho(100, "after")
			if e := <-h.rejects; e.Code != 0 || e.Line != 3 {
				t.Errorf("reject: got %+v, want a drop of line 3", e)
			}
		})
	}
}

// TestTransportForwardsResponses answers a request of the server: the
// tool waits for it.
func TestTransportForwardsResponses(t *testing.T) {
	h := start(t, TransportOptions{})
	h.send(`{"jsonrpc":"2.0","id":12345,"result":{}}`) // to no request: ignored
	h.send(`{"jsonrpc":"2.0","id":20,"method":"tools/call","params":{"name":"ask","arguments":{}}}`)
	ping := h.recv()
	if ping.Method != "ping" || ping.ID == nil {
		t.Fatalf("got %s, want a ping request", ping.raw)
	}
	h.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{}}`, ping.ID))
	if r := h.recv(); string(r.ID) != "20" || r.Error != nil || strings.Contains(string(r.Result), `"isError":true`) {
		t.Fatalf("got %s, want the tool's success", r.raw)
	}
	h.noRejects()
}

// TestTransportForwardsNotifications cancels a call with a notification.
func TestTransportForwardsNotifications(t *testing.T) {
	h := start(t, TransportOptions{})
	h.send(`{"jsonrpc":"2.0","id":50,"method":"tools/call","params":{"name":"block","arguments":{}}}`)
	<-h.blocked
	h.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":50}}`)
	<-h.cancelled
	h.send(echoCall(51, "after"))
	r := h.recv()
	if string(r.ID) == "50" { // the SDK may still answer the cancelled call
		r = h.recv()
	}
	if string(r.ID) != "51" || r.Error != nil {
		t.Fatalf("got %s, want the answer to 51", r.raw)
	}
	h.noRejects()
}

func TestTransportOversize(t *testing.T) {
	huge := func(id, size int) string {
		call := echoCall(id, "")
		return strings.Replace(call, `"text":""`, `"text":"`+strings.Repeat("a", size-len(call))+`"`, 1)
	}
	tests := []struct {
		name     string
		max      int // TransportOptions.MaxMessageSize
		size     int // of the line, without its newline
		rejected bool
	}{
		{"17 MiB, default limit", 0, 17 << 20, true},
		{"17 MiB, 1 MiB limit", 1 << 20, 17 << 20, true},
		{"at the limit", 4096, 4096, false},
		{"one past the limit", 4096, 4097, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := start(t, TransportOptions{MaxMessageSize: tc.max})
			line := huge(7, tc.size)
			if len(line) != tc.size {
				t.Fatalf("made a line of %d bytes, want %d", len(line), tc.size)
			}
			h.send(line)
			h.send(echoCall(100, "after"))
			if tc.rejected {
				h.expectError(jsonrpc.CodeInvalidRequest, "null")
				if e := <-h.rejects; e.Line != 3 {
					t.Errorf("reject: got %+v, want line 3", e)
				}
				h.expectEcho(100, "after")
			} else {
				// The SDK answers calls concurrently, in any order.
				answered := map[string]bool{}
				for range 2 {
					r := h.recv()
					if r.Error != nil {
						t.Fatalf("got %.200s", r.raw)
					}
					answered[string(r.ID)] = true
				}
				if !answered["7"] || !answered["100"] {
					t.Fatalf("answered %v, want 7 and 100", answered)
				}
				h.noRejects()
			}
			h.stop()
			// The line buffer never outgrows the limit (and the newline),
			// whatever the line's length.
			limit := orDefault(tc.max, DefaultMaxMessageSize)
			if peak := h.tr.f.peak; peak > limit+1 {
				t.Errorf("buffered %d bytes, want at most %d", peak, limit+1)
			}
		})
	}
}

// orDefault is v, or def when v is 0.
func orDefault(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

// TestTransportWritesDoNotInterleave races the filter's answers with the
// SDK's, which it sends from handler goroutines.
func TestTransportWritesDoNotInterleave(t *testing.T) {
	h := start(t, TransportOptions{})
	const n = 200
	for i := range n {
		h.send("hello")
		h.send(echoCall(1000+i, strings.Repeat("x", i*50)))
	}
	parseErrors, answered := 0, map[string]bool{}
	for range 2 * n {
		r := h.recv() // fails on a line that is not one whole message
		switch {
		case r.Error != nil && r.Error.Code == jsonrpc.CodeParseError:
			parseErrors++
		case r.Error == nil:
			answered[string(r.ID)] = true
		default:
			t.Fatalf("unexpected answer %s", r.raw)
		}
	}
	if parseErrors != n || len(answered) != n {
		t.Errorf("got %d parse errors and %d answers, want %d of each", parseErrors, len(answered), n)
	}
}

func TestTransportEOF(t *testing.T) {
	h := start(t, TransportOptions{})
	h.lines <- []byte("hello") // the last line, without a newline
	h.closeInput()
	if r := h.expectError(jsonrpc.CodeParseError, "null"); !strings.Contains(r.Error.Message, "Parse error") {
		t.Errorf("got message %q", r.Error.Message)
	}
	<-h.ran
	if h.runErr != nil {
		t.Errorf("Run: got %v, want nil at EOF", h.runErr)
	}
}

func TestTransportRecoversPanics(t *testing.T) {
	h := start(t, TransportOptions{})
	h.send(`{"jsonrpc":"2.0","id":40,"method":"tools/call","params":{"name":"panic","arguments":{}}}`)
	h.expectError(jsonrpc.CodeInternalError, "40")
	pe := <-h.panics
	if pe.Method != "tools/call" || pe.Value != "boom" || !strings.Contains(string(pe.Stack), "panic") {
		t.Errorf("got %v with stack %.100s", pe, pe.Stack)
	}
	h.send(echoCall(41, "after"))
	h.expectEcho(41, "after")
}

func TestTransportConnectOnce(t *testing.T) {
	r, w := io.Pipe()
	tr := NewTransport(r, io.Discard, TransportOptions{})
	conn, err := tr.Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tr.Connect(context.Background()); err == nil {
		t.Error("second Connect: got nil, want an error")
	}
	conn.Close()
	<-tr.f.done // closing the connection closed r, ending the reader
	w.Close()
}

func TestTooDeep(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"[[1]]", false},
		{"[[[1]]]", true},
		{`{"a":{"b":1}}`, false},
		{`{"a":{"b":{}}}`, true},
		{`["[[[[", "\"[[[["]`, false},
		{`[1],[2],[3]`, false},
	}
	for _, tc := range tests {
		if got := tooDeep([]byte(tc.in), 2); got != tc.want {
			t.Errorf("tooDeep(%s, 2): got %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestIDProblem(t *testing.T) {
	tests := []struct {
		id string
		ok bool
	}{
		{`"a"`, true}, {`""`, true}, {"0", true}, {"-7", true}, {"null", true},
		{"9007199254740992", true}, {"-9007199254740992", true}, {"9007199254740993", false},
		{"1e2", false}, {"1.0", false}, {"1.5", false}, {"1e400", false},
		{"true", false}, {"[]", false}, {"{}", false},
	}
	for _, tc := range tests {
		if got := idProblem(json.RawMessage(tc.id)); (got == "") != tc.ok {
			t.Errorf("idProblem(%s): got %q, want ok=%v", tc.id, got, tc.ok)
		}
	}
}

// FuzzInspect checks that what inspect forwards the SDK decodes, and that
// what it answers carries an id that is JSON.
func FuzzInspect(f *testing.F) {
	for _, s := range []string{"hello", "[]", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, `{"jsonrpc":"2.0","id":1,"result":{}}`,
		`{"jsonrpc":"2.0","id":{"a":1},"method":"x"}`, `{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m"}}`, "\xff"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, msg []byte) {
		if len(msg) == 0 {
			return
		}
		v := inspect(msg)
		switch {
		case v.message == "":
			if _, err := jsonrpc.DecodeMessage(msg); err != nil {
				t.Errorf("forwarded %q, which the SDK rejects: %v", msg, err)
			}
		case v.code != 0 && v.id != nil && !json.Valid(v.id):
			t.Errorf("answered %q with id %q", msg, v.id)
		}
	})
}
