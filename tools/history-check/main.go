// history-check: is a recorded history of concurrent operations linearizable against one of
// the contract's models? A thin command around porcupine (the checker etcd's robustness tests
// use): reads the history as JSON, prints the verdict as JSON, and writes porcupine's HTML
// visualisation when asked (for a failing history, the part no linearization explains).
//
//	history-check -model head-register [-in history.json] [-html out.html] [-timeout-ms 10000]
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"time"

	"github.com/anishathalye/porcupine"
)

// Bounds on what this reads: histories are small by design (a clause records at most a few
// hundred operations); anything bigger is a kit bug, not something to check slowly.
const (
	maxHistoryBytes = 8 << 20
	maxOperations   = 5000
)

type recordedOp struct {
	Client int     `json:"client"`
	Call   int64   `json:"call"`
	Return *int64  `json:"return"`
	Input  Input   `json:"input"`
	Output *Output `json:"output"`
}

type history struct {
	Model      string       `json:"model"`
	Operations []recordedOp `json:"operations"`
}

type verdict struct {
	Model         string  `json:"model"`
	Verdict       string  `json:"verdict"`
	Operations    int     `json:"operations"`
	Partitions    int     `json:"partitions"`
	Indeterminate int     `json:"indeterminate"`
	CheckMs       int64   `json:"checkMs"`
	Visualization *string `json:"visualization"`
	Error         string  `json:"error,omitempty"`
}

func fail(v verdict, msg string) {
	v.Verdict = "error"
	v.Error = msg
	_ = json.NewEncoder(os.Stdout).Encode(v)
	os.Exit(2)
}

func main() {
	modelName := flag.String("model", "", "head-register | idempotent-map | lease-fencing | memory-revision")
	inPath := flag.String("in", "-", "history JSON file, - for stdin")
	htmlPath := flag.String("html", "", "write porcupine's visualisation here")
	htmlAlways := flag.Bool("html-always", false, "write the visualisation also for a linearizable history")
	timeoutMs := flag.Int("timeout-ms", 10000, "give up (verdict unknown) after this long")
	flag.Parse()

	v := verdict{Model: *modelName}
	model, ok := models[*modelName]
	if !ok {
		names := make([]string, 0, len(models))
		for n := range models {
			names = append(names, n)
		}
		sort.Strings(names)
		fail(v, fmt.Sprintf("unknown model; known: %v", names))
	}
	var r io.Reader = os.Stdin
	if *inPath != "-" {
		f, err := os.Open(*inPath)
		if err != nil {
			fail(v, "cannot open the history: "+err.Error())
		}
		defer f.Close()
		r = f
	}
	raw, err := io.ReadAll(io.LimitReader(r, maxHistoryBytes+1))
	if err != nil || len(raw) > maxHistoryBytes {
		fail(v, "the history cannot be read or is larger than 8 MiB")
	}
	var h history
	if err := json.Unmarshal(raw, &h); err != nil {
		fail(v, "the history is not valid JSON: "+err.Error())
	}
	if h.Model != "" && h.Model != *modelName {
		fail(v, "the history names another model")
	}
	if len(h.Operations) > maxOperations {
		fail(v, "the history has more than 5000 operations")
	}

	ops := make([]porcupine.Operation, 0, len(h.Operations))
	for _, o := range h.Operations {
		ret := int64(math.MaxInt64) // no answer: it may have taken effect at any time after its call
		var output interface{}
		if o.Return != nil && o.Output != nil {
			ret = *o.Return
			output = o.Output
		} else {
			v.Indeterminate++
		}
		if ret < o.Call {
			fail(v, "an operation returns before it is called")
		}
		ops = append(ops, porcupine.Operation{ClientId: o.Client, Input: o.Input, Call: o.Call, Output: output, Return: ret})
	}
	v.Operations = len(ops)
	v.Partitions = len(partitionByKey(ops))

	start := time.Now()
	res, info := porcupine.CheckOperationsVerbose(model, ops, time.Duration(*timeoutMs)*time.Millisecond)
	v.CheckMs = time.Since(start).Milliseconds()
	switch res {
	case porcupine.Ok:
		v.Verdict = "ok"
	case porcupine.Illegal:
		v.Verdict = "illegal"
	default:
		v.Verdict = "unknown"
	}
	if *htmlPath != "" && (res != porcupine.Ok || *htmlAlways) {
		if err := porcupine.VisualizePath(model, info, *htmlPath); err != nil {
			fail(v, "cannot write the visualisation: "+err.Error())
		}
		v.Visualization = htmlPath
	}
	_ = json.NewEncoder(os.Stdout).Encode(v)
}
