package semantic

import (
	"context"
	"encoding/json"
	"os"
	"sort"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
	"github.com/rodeo-run/rodeo/browser/browsertest"
)

func TestZZTransport(t *testing.T) {
	if os.Getenv("ZZTR") == "" {
		t.Skip()
	}
	dir := t.TempDir()
	p := browsertest.Page(t, browsertest.Serve(t, dir)+"/"+bigPage(t, dir, 1000))
	if _, err := p.Evaluate(rod.Eval(`(js, key) => { window.__zzf = eval('(' + js + ')'); window.__zzs = window.__zzf(key); window.__zzs2 = window.__zzs.slice(0, 70000); }`, snapshotJS, windowKey)); err != nil {
		t.Fatal(err)
	}
	med := func(name string, f func()) {
		var ds []time.Duration
		for i := 0; i < 40; i++ {
			t0 := time.Now()
			f()
			ds = append(ds, time.Since(t0))
		}
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		t.Logf("%-30s p50 %6.2f ms  min %6.2f", name, float64(ds[20].Microseconds())/1000, float64(ds[0].Microseconds())/1000)
	}
	var s string
	med("rod eval tiny", func() { p.Evaluate(rod.Eval(`() => 1`)) })
	med("rod eval str216 + Str", func() {
		r, _ := p.Evaluate(rod.Eval(`() => window.__zzs`))
		s = r.Value.Str()
	})
	med("rod eval str70 + Str", func() {
		r, _ := p.Evaluate(rod.Eval(`() => window.__zzs2`))
		_ = r.Value.Str()
	})
	win, _ := p.Evaluate(rod.Eval(`() => window`).ByObject())
	med("raw callFunctionOn tiny", func() {
		p.Call(context.Background(), string(p.SessionID), "Runtime.callFunctionOn", proto.RuntimeCallFunctionOn{ObjectID: win.ObjectID, FunctionDeclaration: "function(){return 1}", ReturnByValue: true})
	})
	med("raw evaluate tiny", func() {
		p.Call(context.Background(), string(p.SessionID), "Runtime.evaluate", proto.RuntimeEvaluate{Expression: "1", ReturnByValue: true})
	})
	var raw []byte
	med("raw evaluate str216", func() {
		raw, _ = p.Call(context.Background(), string(p.SessionID), "Runtime.evaluate", proto.RuntimeEvaluate{Expression: "window.__zzs", ReturnByValue: true})
	})
	med("raw evaluate str70", func() {
		p.Call(context.Background(), string(p.SessionID), "Runtime.evaluate", proto.RuntimeEvaluate{Expression: "window.__zzs2", ReturnByValue: true})
	})
	med("raw evaluate str216 slice", func() {
		p.Call(context.Background(), string(p.SessionID), "Runtime.evaluate", proto.RuntimeEvaluate{Expression: "window.__zzs.slice(0,216000)", ReturnByValue: true})
	})
	med("raw evaluate snap", func() {
		p.Call(context.Background(), string(p.SessionID), "Runtime.evaluate", proto.RuntimeEvaluate{Expression: "window.__zzf('" + windowKey + "')", ReturnByValue: true})
	})
	med("json.Unmarshal raw->string", func() {
		var v struct {
			Result struct {
				Value string `json:"value"`
			} `json:"result"`
		}
		json.Unmarshal(raw, &v)
	})
	med("json valid 216", func() { json.Valid(raw) })
	med("json.Unmarshal wire", func() {
		var w wireSnapshot
		json.Unmarshal([]byte(s), &w)
	})
	t.Logf("raw len %d", len(raw))
	p.Evaluate(rod.Eval(`() => { window.__a216 = 'abcdefghij'.repeat(21600); window.__a70 = 'abcdefghij'.repeat(7000); window.__a30 = 'abcdefghij'.repeat(3000); window.__q216 = 'abcd"fghij'.repeat(21600); window.__a10 = 'abcdefghij'.repeat(1000); window.__d216 = '0123456789'.repeat(21600) }`))
	for _, v := range []string{"__a216", "__a70", "__a30", "__a10", "__q216", "__d216"} {
		med("raw evaluate "+v, func() {
			p.Call(context.Background(), string(p.SessionID), "Runtime.evaluate", proto.RuntimeEvaluate{Expression: "window." + v, ReturnByValue: true})
		})
	}
	med("raw evaluate obj", func() {
		raw, _ = p.Call(context.Background(), string(p.SessionID), "Runtime.evaluate", proto.RuntimeEvaluate{Expression: "JSON.parse(window.__zzs)", ReturnByValue: true})
	})
	t.Logf("obj raw len %d", len(raw))
	med("json 2 passes raw", func() {
		var id struct {
			ID int `json:"id"`
		}
		json.Unmarshal(raw, &id)
		var r struct {
			Result json.RawMessage `json:"result"`
		}
		json.Unmarshal(raw, &r)
	})
}
