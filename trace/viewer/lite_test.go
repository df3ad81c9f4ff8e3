package viewer

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// TestLiteTrace: the lite form is columns (lite.go's comment), with each
// rule of the reduction visible: names in order of first use with
// "(no agent)" among them, spellings kept apart, roles only until an
// agent has a non-empty one, to and from only on their event types (from
// on every return), tool === agent decided where Go can and left to the
// page (toolCmp) where it cannot, edges counted by their type, times as
// integers where that is exact (scaledTimes) and as written else. The
// browser test TestViewerLite holds the page's reading of it to the whole
// trace's.
func TestLiteTrace(t *testing.T) {
	for _, c := range []struct{ name, trace, want string }{
		{"not an object", `[1,2]`,
			`{"n":0,"tScale":0,"names":[],"types":[],"t":[],"agent":[],"type":[],"role":[],"tokens":[],"reward":[],"to":[],"from":[],"tool":[],"toolCmp":[],"edgeTypes":[],"edgeCounts":[],"edges":0}`},
		{"members", `{"events":[` +
			`{"t":1.50,"type":"spawn","agent":"o","role":"","to":"c","tokens":3},` +
			`{"t":"2","type":"message","agent":"o","role":"lead","to":"x","reward":null},` +
			`{"t":3,"type":"message","agent":"o","role":"other","rewards":{}},` +
			`{"t":4,"type":"return","agent":"c","from":"\u0063"},` +
			`{"t":5,"type":"return","agent":"c","from":7},` +
			`7,` +
			`{"t":1e400,"type":5,"agent":{},"role":"r"}` +
			`],"edges":[{"type":"spawn"},{"type":"spawn"},{"type":"causal"},{"type":5},null]}`,
			`{"n":7,"names":["o","c","\u0063","(no agent)"],"types":["spawn","message","return"],` +
				`"t":[1.50,0,3,4,5,0,1e400],"agent":[0,0,0,1,1,3,3],"type":[0,1,1,2,2,-1,-1],` +
				`"role":[0,"",1,"lead",6,"r"],"tokens":[0,3],"reward":[1,2],"to":[0,1],"from":[3,2,4,-1],` +
				`"tool":[],"toolCmp":[],"edgeTypes":["spawn","causal"],"edgeCounts":[2,1],"edges":5}`},
		{"tool === agent", `{"events":[` +
			`{"type":"tool_result","agent":"t","tool":"t"},` +
			`{"type":"tool_result","agent":"t","tool":"u"},` +
			`{"type":"tool_result"},` +
			`{"type":"tool_result","agent":"t"},` +
			`{"type":"tool_result","agent":{},"tool":{}},` +
			`{"type":"tool_result","agent":5,"tool":"5"},` +
			`{"type":"tool_result","agent":null,"tool":null},` +
			`{"type":"tool_result","agent":true,"tool":false},` +
			`{"type":"tool_result","agent":5,"tool":5.0},` +
			`{"type":"tool_result","agent":"\u0074","tool":"t"},` +
			`{"type":"tool_call","agent":"t","tool":"t"}` +
			`],"edges":[]}`,
			`{"n":11,"tScale":0,"names":["t","(no agent)","\u0074"],"types":["tool_result","tool_call"],` +
				`"t":[0,0,0,0,0,0,0,0,0,0,0],"agent":[0,0,1,0,1,1,1,1,1,2,0],"type":[0,0,0,0,0,0,0,0,0,0,1],` +
				`"role":[],"tokens":[],"reward":[],"to":[],"from":[],` +
				`"tool":[0,2,6],"toolCmp":[8,5,5.0,9,"\u0074","t"],"edgeTypes":[],"edgeCounts":[],"edges":0}`},
		{"times as integers", `{"events":[{"t":0.067},{"t":1.5},{"t":-2.25},{"t":"x"},{"t":3}]}`,
			`{"n":5,"tScale":3,"names":["(no agent)"],"types":[],"t":[67,1433,-3750,2250,3000],"agent":[0,0,0,0,0],"type":[-1,-1,-1,-1,-1],` +
				`"role":[],"tokens":[],"reward":[],"to":[],"from":[],"tool":[],"toolCmp":[],"edgeTypes":[],"edgeCounts":[],"edges":0}`},
		{"-0 as written", `{"events":[{"t":1},{"t":-0.0}]}`,
			`{"n":2,"names":["(no agent)"],"types":[],"t":[1,-0.0],"agent":[0,0],"type":[-1,-1],` +
				`"role":[],"tokens":[],"reward":[],"to":[],"from":[],"tool":[],"toolCmp":[],"edgeTypes":[],"edgeCounts":[],"edges":0}`},
		{"ten decimals as written", `{"events":[{"t":0.0000000001}]}`,
			`{"n":1,"names":["(no agent)"],"types":[],"t":[0.0000000001],"agent":[0],"type":[-1],` +
				`"role":[],"tokens":[],"reward":[],"to":[],"from":[],"tool":[],"toolCmp":[],"edgeTypes":[],"edgeCounts":[],"edges":0}`},
		{"2^52 as written", `{"events":[{"t":4503599627370496}]}`,
			`{"n":1,"names":["(no agent)"],"types":[],"t":[4503599627370496],"agent":[0],"type":[-1],` +
				`"role":[],"tokens":[],"reward":[],"to":[],"from":[],"tool":[],"toolCmp":[],"edgeTypes":[],"edgeCounts":[],"edges":0}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := liteTrace([]byte(c.trace))
			if !json.Valid(got) {
				t.Fatalf("not JSON: %s", got)
			}
			if string(got) != c.want {
				t.Errorf("liteTrace(%s)\n got %s\nwant %s", c.trace, got, c.want)
			}
		})
	}
}

// TestScaledTimesExact: k / 10^scale, as the page computes it (IEEE
// division of two exact doubles, which Go's float64 division is too), is
// the time parsing the decimal gives, for random decimals of every scale
// scaledTimes takes.
func TestScaledTimesExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(38, 2))
	for range 200000 {
		d := rng.IntN(maxScale + 1)
		k := rng.Int64N(maxScaled)
		if rng.IntN(4) == 0 {
			k = rng.Int64N(1 << 20)
		}
		s := strconv.FormatInt(k, 10)
		if d > 0 {
			s = strings.Repeat("0", max(0, d+1-len(s))) + s
			s = s[:len(s)-d] + "." + s[len(s)-d:]
		}
		if rng.IntN(2) == 0 && k != 0 {
			s = "-" + s
		}
		scale, deltas, ok := scaledTimes([][]byte{[]byte(s)})
		if !ok {
			t.Fatalf("scaledTimes(%s) refused", s)
		}
		want, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatal(err)
		}
		if got := float64(deltas[0]) / math.Pow10(scale); got != want {
			t.Fatalf("%s: k %d / 10^%d = %v, parsing gives %v", s, deltas[0], scale, got, want)
		}
	}
}
