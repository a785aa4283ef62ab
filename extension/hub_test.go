package extension_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/fasthttp/websocket"
	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/extension"
	"github.com/rodeo-run/rodeo/scripts"
	_ "github.com/rodeo-run/rodeo/scripts/nodes"
	"github.com/rodeo-run/rodeo/server"
	"github.com/rodeo-run/rodeo/store"
)

// fixture is a rodeo server (store, engine with every node, hub) on a random loopback port.
type fixture struct {
	db     *store.DB
	engine *scripts.Engine
	hub    *extension.Hub
	base   string // http://127.0.0.1:port
	key    string // a key of account "default"
}

// save stores a saved script of the default account.
func (f *fixture) save(t *testing.T, name, goal string, nodes ...string) {
	t.Helper()
	if _, err := f.db.SaveScript(store.DefaultAccount, name, goal, json.RawMessage("["+strings.Join(nodes, ",")+"]")); err != nil {
		t.Fatal(err)
	}
}

func newFixture(t *testing.T, ttl time.Duration) *fixture {
	t.Helper()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	if testing.Verbose() {
		log = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	db, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	key, _, err := db.CreateKey(store.DefaultAccount)
	if err != nil {
		t.Fatal(err)
	}
	runner := &scripts.Runner{Registry: scripts.DefaultRegistry, Logger: log, Services: &scripts.Services{Store: db}}
	engine := scripts.NewEngine(runner, db, log)
	engine.RunTimeout = time.Minute
	hub := extension.New(extension.Config{Engine: engine, Store: db, QueueTTL: ttl, Logger: log})
	server.AttachExtensionHub(engine, hub)
	srv := server.New(server.Config{Engine: engine, Store: db, Logger: log})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.App().Listener(ln) }()
	t.Cleanup(func() {
		hub.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = engine.Shutdown(ctx)
		_ = srv.Shutdown(ctx)
		server.AttachExtensionHub(engine, nil)
		_ = db.Close()
	})
	return &fixture{db: db, engine: engine, hub: hub, base: "http://" + ln.Addr().String(), key: key}
}

type response struct {
	status int
	body   []byte
}

func (f *fixture) do(t *testing.T, method, path, body string) response {
	t.Helper()
	req, err := http.NewRequest(method, f.base+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+f.key)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return response{res.StatusCode, b}
}

func (f *fixture) trigger(t *testing.T, query, start, name, data string) response {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"key": f.key, "start": start, "name": name, "data": data})
	return f.do(t, "POST", "/triggers/extension"+query, string(body))
}

func decode[T any](t *testing.T, r response) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(r.body, &v); err != nil {
		t.Fatalf("decode %s: %v", r.body, err)
	}
	return v
}

type accepted struct {
	RunID     string `json:"run_id"`
	Status    string `json:"status"`
	StatusURL string `json:"status_url"`
}

func (f *fixture) run(t *testing.T, id string) scripts.Doc {
	t.Helper()
	r := f.do(t, "GET", "/runs/"+id, "")
	if r.status != 200 {
		t.Fatalf("GET /runs/%s: %d %s", id, r.status, r.body)
	}
	return decode[scripts.Doc](t, r)
}

// waitRun polls the run document until done(doc) or the deadline.
func (f *fixture) waitRun(t *testing.T, id string, within time.Duration, done func(scripts.Doc) bool) scripts.Doc {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		d := f.run(t, id)
		if done(d) {
			return d
		}
		if time.Now().After(deadline) {
			t.Fatalf("run %s: condition not reached within %s; document: %+v", id, within, d)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func final(d scripts.Doc) bool { return scripts.Final(d.Status) }

func (f *fixture) wsURL() string {
	return "ws" + strings.TrimPrefix(f.base, "http") + "/extension/connect"
}

// dial connects a protocol-level client (a stand-in extension) and sends hello with key.
func (f *fixture) dial(t *testing.T, key string) *websocket.Conn {
	t.Helper()
	ws, _, err := websocket.DefaultDialer.Dial(f.wsURL(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ws.Close() })
	if err := ws.WriteJSON(map[string]string{"type": "hello", "key": key, "version": "test"}); err != nil {
		t.Fatal(err)
	}
	_ = ws.SetReadDeadline(time.Now().Add(5 * time.Second))
	return ws
}

type frame struct {
	Type       string `json:"type"`
	Code       string `json:"code"`
	Message    string `json:"message"`
	Account    string `json:"account"`
	Run        string `json:"run"`
	Background bool   `json:"background"`
}

func TestConnect_RefusesBadKeys(t *testing.T) {
	f := newFixture(t, time.Minute)
	for _, tc := range []struct {
		name, key string
	}{{"unknown key", "rk_nope"}, {"empty key", ""}} {
		t.Run(tc.name, func(t *testing.T) {
			ws := f.dial(t, tc.key)
			var fr frame
			if err := ws.ReadJSON(&fr); err != nil {
				t.Fatal(err)
			}
			if fr.Type != "error" || fr.Code != errs.InvalidKey {
				t.Fatalf("first frame %+v, want an invalid_key error", fr)
			}
			if strings.Contains(fr.Message, tc.key) && tc.key != "" {
				t.Fatalf("the refusal repeats the key: %q", fr.Message)
			}
			_, _, err := ws.ReadMessage()
			if !websocket.IsCloseError(err, 4401) {
				t.Fatalf("after the refusal: %v, want close 4401", err)
			}
		})
	}
	t.Run("first frame not hello", func(t *testing.T) {
		ws, _, err := websocket.DefaultDialer.Dial(f.wsURL(), nil)
		if err != nil {
			t.Fatal(err)
		}
		defer ws.Close()
		_ = ws.WriteJSON(map[string]string{"type": "ping"})
		_ = ws.SetReadDeadline(time.Now().Add(5 * time.Second))
		var fr frame
		_ = ws.ReadJSON(&fr)
		if _, _, err := ws.ReadMessage(); !websocket.IsCloseError(err, 4400) {
			t.Fatalf("got %v, want close 4400", err)
		}
	})
	t.Run("plain GET", func(t *testing.T) {
		if r := f.do(t, "GET", "/extension/connect", ""); r.status != 400 || !strings.Contains(string(r.body), "upgrade_required") {
			t.Fatalf("GET without upgrade: %d %s", r.status, r.body)
		}
	})
	if n := f.hub.Connected(store.DefaultAccount); n != 0 {
		t.Fatalf("%d connections after refusals, want 0", n)
	}
	t.Run("revoked key", func(t *testing.T) {
		secret, k, err := f.db.CreateKey(store.DefaultAccount)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.db.RevokeKey(k.ID); err != nil {
			t.Fatal(err)
		}
		ws := f.dial(t, secret)
		var fr frame
		if err := ws.ReadJSON(&fr); err != nil || fr.Code != errs.InvalidKey {
			t.Fatalf("revoked key: %+v %v", fr, err)
		}
	})
	t.Run("good key", func(t *testing.T) {
		ws := f.dial(t, f.key)
		var fr frame
		if err := ws.ReadJSON(&fr); err != nil || fr.Type != "welcome" || fr.Account != store.DefaultAccount {
			t.Fatalf("welcome: %+v %v", fr, err)
		}
		if n := f.hub.Connected(store.DefaultAccount); n != 1 {
			t.Fatalf("%d connections, want 1", n)
		}
		_ = ws.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""))
		_ = ws.Close()
		deadline := time.Now().Add(3 * time.Second)
		for f.hub.Connected(store.DefaultAccount) != 0 {
			if time.Now().After(deadline) {
				t.Fatal("the hub still counts a closed connection")
			}
			time.Sleep(10 * time.Millisecond)
		}
	})
}

func TestTrigger_BadRequests(t *testing.T) {
	f := newFixture(t, time.Minute)
	f.save(t, "hello", "say hello", `{"type":"print","message":"hi"}`)
	cases := []struct {
		name, body string
		status     int
		code       string
	}{
		{"not json", `{`, 400, errs.InvalidJSON},
		{"bad key", `{"key":"rk_nope","name":"hello"}`, 401, errs.InvalidKey},
		{"no name", `{"key":"` + f.key + `"}`, 400, errs.InvalidConfig},
		{"unknown script", `{"key":"` + f.key + `","name":"nope"}`, 404, errs.NotFound},
		{"file start", `{"key":"` + f.key + `","name":"hello","start":"file:///etc/passwd"}`, 400, errs.InvalidConfig},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest("POST", f.base+"/triggers/extension", strings.NewReader(tc.body))
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			var body struct {
				Error struct{ Code string } `json:"error"`
			}
			_ = json.NewDecoder(res.Body).Decode(&body)
			if res.StatusCode != tc.status || body.Error.Code != tc.code {
				t.Fatalf("got %d %q, want %d %q", res.StatusCode, body.Error.Code, tc.status, tc.code)
			}
		})
	}
	recs, err := f.db.ListRuns(store.DefaultAccount, 0, "")
	if err != nil || len(recs) != 0 {
		t.Fatalf("refused triggers stored runs: %d %v", len(recs), err)
	}
}

func TestQueue_ExpiresWithoutExtension(t *testing.T) {
	f := newFixture(t, 300*time.Millisecond)
	f.save(t, "form", "fill the form", `{"type":"open tab","target":"http://127.0.0.1:1/"}`)
	r := f.trigger(t, "", "", "form", "x")
	if r.status != 202 {
		t.Fatalf("trigger: %d %s", r.status, r.body)
	}
	a := decode[accepted](t, r)
	if a.Status != scripts.StatusQueued || a.StatusURL != "/runs/"+a.RunID {
		t.Fatalf("answer %+v", a)
	}
	if d := f.run(t, a.RunID); d.Status != scripts.StatusQueued || d.Source != extension.Source {
		t.Fatalf("queued run document: %+v", d)
	}
	rec, err := f.db.GetRun(store.DefaultAccount, a.RunID)
	if err != nil || rec.Status != scripts.StatusQueued {
		t.Fatalf("store: %+v %v", rec, err)
	}
	// ?wait=true waits for the expiry.
	r = f.trigger(t, "?wait=true", "", "form", "y")
	d := decode[scripts.Doc](t, r)
	if r.status != 200 || d.Status != scripts.StatusExpired || d.Error == nil || d.Error.Code != extension.CodeNotConnected {
		t.Fatalf("waited trigger: %d %s", r.status, r.body)
	}
	if d.Data["data"] != "y" {
		t.Fatalf("data variable %v, want y", d.Data["data"])
	}
	d = f.waitRun(t, a.RunID, 3*time.Second, final)
	if d.Status != scripts.StatusExpired || d.Error == nil || !strings.Contains(d.Error.Message, "no companion extension") {
		t.Fatalf("expired run: %+v", d)
	}
	if recs, _ := f.db.UnfinishedRuns(); len(recs) != 0 {
		t.Fatalf("%d runs still unfinished after expiry", len(recs))
	}
}

// TestDispatch_LeastBusy connects two stand-in extensions of one account: two runs go one to
// each, and a refused open fails the run with extension_open_failed.
func TestDispatch_LeastBusy(t *testing.T) {
	f := newFixture(t, time.Minute)
	f.save(t, "go", "open a page", `{"type":"open tab","target":"http://127.0.0.1:1/"}`)
	var conns []*websocket.Conn
	for range 2 {
		ws := f.dial(t, f.key)
		var fr frame
		if err := ws.ReadJSON(&fr); err != nil || fr.Type != "welcome" {
			t.Fatalf("welcome: %+v %v", fr, err)
		}
		conns = append(conns, ws)
	}
	ids := map[string]bool{}
	for range 2 {
		ids[decode[accepted](t, f.trigger(t, "", "https://example.com/x", "go", "")).RunID] = true
	}
	for i, ws := range conns {
		var fr frame
		if err := ws.ReadJSON(&fr); err != nil || fr.Type != "open" || !ids[fr.Run] || fr.Background {
			t.Fatalf("extension %d: %+v %v", i, fr, err)
		}
		delete(ids, fr.Run)
		_ = ws.WriteJSON(map[string]string{"type": "open_failed", "run": fr.Run, "message": "no tab for you"})
		d := f.waitRun(t, fr.Run, 3*time.Second, final)
		if d.Status != scripts.StatusFailed || d.Error == nil || d.Error.Code != extension.CodeOpenFailed || !strings.Contains(d.Error.Message, "no tab for you") {
			t.Fatalf("refused open: %+v", d)
		}
	}
}

// TestManifest checks the manifest and that its key pins the extension id.
func TestManifest(t *testing.T) {
	raw, err := os.ReadFile("manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Version     int      `json:"manifest_version"`
		Key         string   `json:"key"`
		Permissions []string `json:"permissions"`
		Background  struct {
			ServiceWorker string `json:"service_worker"`
		} `json:"background"`
		Options struct {
			Page string `json:"page"`
		} `json:"options_ui"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	if m.Version != 3 || m.Key == "" {
		t.Fatalf("manifest_version %d, key set %v", m.Version, m.Key != "")
	}
	for _, f := range []string{m.Background.ServiceWorker, m.Options.Page, "options.js"} {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("manifest names %s: %v", f, err)
		}
	}
	for _, p := range []string{"debugger", "tabs", "storage"} {
		if !bytes.Contains(raw, []byte(`"`+p+`"`)) {
			t.Fatalf("permission %s missing", p)
		}
	}
	if id := extensionID(t, m.Key); id != "bgfhanhfjpeanphbiipbekijilfjnlco" {
		t.Fatalf("extension id %s: the manifest key changed (docs/extension.md names the id)", id)
	}
	js, _ := os.ReadFile(m.Background.ServiceWorker)
	if bytes.Contains(js, []byte("console.log")) {
		t.Fatal("background.js logs; it must never log settings or keys")
	}
}

// extensionID is Chrome's id of an extension with this manifest key: the first 128 bits of the
// SHA-256 of the public key, in hex digits mapped to a-p.
func extensionID(t *testing.T, key string) string {
	der, err := base64.StdEncoding.DecodeString(key)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(der)
	h := hex.EncodeToString(sum[:16])
	var b strings.Builder
	for _, c := range h {
		v := strings.IndexRune("0123456789abcdef", c)
		b.WriteByte(byte('a' + v))
	}
	return b.String()
}

// TestQueue_CancelWhileQueued cancels a run that waits for an extension: it ends canceled at once,
// stays canceled (no late dispatch or expiry), and nothing is left unfinished in the store.
func TestQueue_CancelWhileQueued(t *testing.T) {
	f := newFixture(t, 300*time.Millisecond)
	f.save(t, "form", "fill the form", `{"type":"open tab","target":"http://127.0.0.1:1/"}`)
	a := decode[accepted](t, f.trigger(t, "", "", "form", "x"))
	r := f.do(t, "POST", "/runs/"+a.RunID+"/cancel", "")
	d := decode[scripts.Doc](t, r)
	if r.status != 200 || d.Status != scripts.StatusCanceled || d.Error == nil || d.Error.Code != "canceled" {
		t.Fatalf("cancel: %d %s", r.status, r.body)
	}
	time.Sleep(500 * time.Millisecond) // past the queue TTL: the expiry must not overwrite it
	if d := f.run(t, a.RunID); d.Status != scripts.StatusCanceled {
		t.Fatalf("after the TTL: %+v", d)
	}
	if recs, _ := f.db.UnfinishedRuns(); len(recs) != 0 {
		t.Fatalf("%d runs still unfinished after cancel", len(recs))
	}
	if n := f.hub.Queued(store.DefaultAccount); n != 0 {
		t.Fatalf("%d runs still queued", n)
	}
}

// TestQueue_SurvivesRestart stops a server with runs waiting for an extension: after the restart
// a run whose time is not up is still queued (not "interrupted"), and one whose time ran out while
// the server was down has expired.
func TestQueue_SurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	type server struct {
		db     *store.DB
		engine *scripts.Engine
		hub    *extension.Hub
	}
	start := func(ttl time.Duration) server {
		db, err := store.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		engine := scripts.NewEngine(&scripts.Runner{Registry: scripts.DefaultRegistry, Logger: log}, db, log)
		hub := extension.New(extension.Config{Engine: engine, Store: db, QueueTTL: ttl, Logger: log})
		if _, err := engine.RecoverInterrupted(); err != nil {
			t.Fatal(err)
		}
		hub.Resume()
		return server{db, engine, hub}
	}
	stop := func(s server) {
		s.hub.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = s.engine.Shutdown(ctx)
		_ = s.db.Close()
	}
	script, err := scripts.DefaultRegistry.Compile("wait for me", []json.RawMessage{json.RawMessage(`{"type":"open tab","target":"http://127.0.0.1:1/"}`)},
		map[string]any{"data": "payload"})
	if err != nil {
		t.Fatal(err)
	}
	status := func(s server, id string) string {
		d, err := s.engine.Get(store.DefaultAccount, id)
		if err != nil {
			t.Fatal(err)
		}
		return d.Status
	}

	s := start(time.Minute)
	kept, err := s.hub.Enqueue(store.DefaultAccount, script, &scripts.ScriptRef{Name: "w", Version: 2}, true)
	if err != nil {
		t.Fatal(err)
	}
	stop(s)
	s = start(time.Minute)
	if got := status(s, kept.ID()); got != scripts.StatusQueued || s.hub.Queued(store.DefaultAccount) != 1 {
		t.Fatalf("after a restart: status %s, %d queued; want queued, 1", got, s.hub.Queued(store.DefaultAccount))
	}
	stop(s)

	s = start(200 * time.Millisecond)
	gone, err := s.hub.Enqueue(store.DefaultAccount, script, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	stop(s)
	time.Sleep(300 * time.Millisecond)
	s = start(time.Minute)
	defer stop(s)
	d, err := s.engine.Get(store.DefaultAccount, gone.ID())
	if err != nil || d.Status != scripts.StatusExpired || d.Error == nil || d.Error.Code != extension.CodeNotConnected || d.Data["data"] != "payload" {
		t.Fatalf("a run whose time ran out while the server was down: %+v %v", d, err)
	}
	if got := status(s, kept.ID()); got != scripts.StatusQueued {
		t.Fatalf("the first run: %s, want still queued", got)
	}
}
