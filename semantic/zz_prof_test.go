package semantic

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
	"github.com/rodeo-run/rodeo/browser/browsertest"
)

func TestZZProfile(t *testing.T) {
	if os.Getenv("ZZPROF") == "" {
		t.Skip()
	}
	js := snapshotJS
	if f := os.Getenv("ZZJS"); f != "" {
		b, _ := os.ReadFile(f)
		js = string(b)
	}
	dir := t.TempDir()
	p := browsertest.Page(t, browsertest.Serve(t, dir)+"/"+bigPage(t, dir, 1000))
	// install once
	if _, err := p.Evaluate(rod.Eval(`(js, key) => { window.__zzf = eval('(' + js + ')'); }`, js, windowKey)); err != nil {
		t.Fatal(err)
	}
	run := func(n int) []float64 {
		var ds []float64
		for i := 0; i < n; i++ {
			res, err := p.Evaluate(rod.Eval(`(key) => { const t0 = performance.now(); const s = window.__zzf(key); return [performance.now() - t0, s.length]; }`, windowKey))
			if err != nil {
				t.Fatal(err)
			}
			ds = append(ds, res.Value.Arr()[0].Num())
			if i == 0 {
				t.Logf("len %d", res.Value.Arr()[1].Int())
			}
		}
		sort.Float64s(ds)
		return ds
	}
	ds := run(30)
	t.Logf("installed fn: p50 %.2f ms min %.2f", ds[len(ds)/2], ds[0])
	proto.ProfilerEnable{}.Call(p)
	proto.ProfilerSetSamplingInterval{Interval: 50}.Call(p)
	proto.ProfilerStart{}.Call(p)
	run(40)
	prof, err := proto.ProfilerStop{}.Call(p)
	if err != nil {
		t.Fatal(err)
	}
	self := map[string]int{}
	byID := map[int]*proto.ProfilerProfileNode{}
	for _, n := range prof.Profile.Nodes {
		byID[n.ID] = n
	}
	lines := map[int]int{}
	for _, n := range prof.Profile.Nodes {
		for _, pt := range n.PositionTicks {
			lines[pt.Line] += pt.Ticks
		}
	}
	var ls []int
	for l := range lines {
		ls = append(ls, l)
	}
	sort.Slice(ls, func(i, j int) bool { return lines[ls[i]] > lines[ls[j]] })
	jsLines := strings.Split(js, "\n")
	for i, l := range ls {
		if i > 30 {
			break
		}
		src := ""
		if l-1 < len(jsLines) && l >= 1 {
			src = strings.TrimSpace(jsLines[l-1])
			if len(src) > 110 {
				src = src[:110]
			}
		}
		t.Logf("line %4d %5d  %s", l, lines[l], src)
	}
	total := 0
	for _, s := range prof.Profile.Samples {
		n := byID[s]
		k := fmt.Sprintf("%s:%d", n.CallFrame.FunctionName, n.CallFrame.LineNumber)
		if n.CallFrame.URL != "" && n.CallFrame.LineNumber >= 0 {
			k += " " + n.CallFrame.URL[max(0, len(n.CallFrame.URL)-10):]
		}
		self[k]++
		total++
	}
	type kv struct {
		k string
		v int
	}
	var kvs []kv
	for k, v := range self {
		kvs = append(kvs, kv{k, v})
	}
	sort.Slice(kvs, func(i, j int) bool { return kvs[i].v > kvs[j].v })
	for i, x := range kvs {
		if i > 40 {
			break
		}
		t.Logf("%5.1f%% %s", 100*float64(x.v)/float64(total), x.k)
	}
	_ = time.Now
	_ = context.Background
}
