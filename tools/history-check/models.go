package main

// The contract's sequential specifications, one porcupine model each. A history records what
// clients saw; an operation whose answer was lost has no output (Unknown) and no return time,
// so porcupine may place it anywhere after its call — also after everything else, which is
// the same as "never happened". That is why each model applies an unknown operation whenever
// its precondition holds: not applying it is the linearization that puts it last.

import (
	"fmt"

	"github.com/anishathalye/porcupine"
)

// Input is one invocation. Key partitions the history (a binding and epoch, an idempotency
// key, a memory key); the other fields are read by the models that need them.
type Input struct {
	Key        string `json:"key"`
	Op         string `json:"op"`
	Expected   int64  `json:"expected"`
	Value      string `json:"value"`
	Run        string `json:"run"`
	Generation int64  `json:"generation"`
}

// Output is what the client saw. Status "ok" or "refused" (with the contract error code or
// outcome, and for a memory conflict the current revision in Version); nil when unknown.
type Output struct {
	Status  string `json:"status"`
	Code    string `json:"code"`
	Version int64  `json:"version"`
	Value   string `json:"value"`
	Ref     string `json:"ref"`
	Run     string `json:"run"`
}

func in(i interface{}) Input { return i.(Input) }

func out(o interface{}) *Output {
	if o == nil {
		return nil
	}
	v := o.(*Output)
	return v
}

func partitionByKey(history []porcupine.Operation) [][]porcupine.Operation {
	byKey := map[string][]porcupine.Operation{}
	var order []string
	for _, op := range history {
		k := in(op.Input).Key
		if _, seen := byKey[k]; !seen {
			order = append(order, k)
		}
		byKey[k] = append(byKey[k], op)
	}
	parts := make([][]porcupine.Operation, 0, len(order))
	for _, k := range order {
		parts = append(parts, byKey[k])
	}
	return parts
}

func describeOutput(o *Output) string {
	if o == nil {
		return "?"
	}
	if o.Status == "refused" {
		if o.Version != 0 {
			return fmt.Sprintf("refused %s (current %d)", o.Code, o.Version)
		}
		return "refused " + o.Code
	}
	s := "ok"
	if o.Version != 0 {
		s += fmt.Sprintf(" r%d", o.Version)
	}
	if o.Value != "" {
		s += " " + o.Value
	}
	if o.Ref != "" {
		s += " ref " + o.Ref
	}
	return s
}

// ---- the durable head: a compare-and-set register per binding and epoch ----

type headState struct {
	Revision int64
	StateID  string
	Run      string
}

// A commit is a CAS on the revision; a retry of the very commit that landed (same pending
// state and run, expecting the revision it moved from) answers that head again (R03).
func headStep(s interface{}, i interface{}, o interface{}) (bool, interface{}) {
	st, op, res := s.(headState), in(i), out(o)
	switch op.Op {
	case "load":
		if res == nil {
			return true, st
		}
		return res.Status == "ok" && res.Version == st.Revision && res.Value == st.StateID, st
	case "commit":
		applies := op.Expected == st.Revision
		retry := st.Revision == op.Expected+1 && st.StateID == op.Value && st.Run == op.Run
		next := headState{Revision: st.Revision + 1, StateID: op.Value, Run: op.Run}
		if res == nil {
			if applies {
				return true, next
			}
			return true, st
		}
		if res.Status == "ok" {
			if applies {
				return res.Version == next.Revision && res.Value == op.Value, next
			}
			return retry && res.Version == st.Revision && res.Value == st.StateID, st
		}
		if res.Code == "revision_conflict" {
			return !applies && !retry, st
		}
		// Any other definite refusal (a fenced lease, an unknown pending ref) changes nothing.
		return true, st
	}
	return false, st
}

var headModel = porcupine.Model{
	Partition: partitionByKey,
	Init:      func() interface{} { return headState{} },
	Step:      headStep,
	DescribeOperation: func(i, o interface{}) string {
		op := in(i)
		if op.Op == "load" {
			return "load_head -> " + describeOutput(out(o))
		}
		return fmt.Sprintf("commit(%s, expect r%d) -> %s", op.Value, op.Expected, describeOutput(out(o)))
	},
	DescribeState: func(s interface{}) string {
		st := s.(headState)
		if st.Revision == 0 {
			return "no head"
		}
		return fmt.Sprintf("r%d %s", st.Revision, st.StateID)
	},
}

// ---- idempotent writes: a map whose key, once set, keeps its value and its ref ----

type entryState struct {
	Set  bool
	Hash string
	Ref  string // "" while only an unanswered write set it
}

func entryStep(s interface{}, i interface{}, o interface{}) (bool, interface{}) {
	st, op, res := s.(entryState), in(i), out(o)
	if op.Op != "write" {
		return false, st
	}
	same := st.Set && st.Hash == op.Value
	if res == nil {
		if !st.Set {
			return true, entryState{Set: true, Hash: op.Value}
		}
		return true, st
	}
	if res.Status == "ok" {
		if !st.Set {
			return res.Ref != "", entryState{Set: true, Hash: op.Value, Ref: res.Ref}
		}
		if same && (st.Ref == "" || st.Ref == res.Ref) {
			return true, entryState{Set: true, Hash: st.Hash, Ref: res.Ref}
		}
		return false, st
	}
	if res.Code == "idempotency_key_reuse" {
		return st.Set && !same, st
	}
	// A bound (size, count, rate) may refuse a new write, never the retry of an accepted one.
	return !same, st
}

var entryModel = porcupine.Model{
	Partition: partitionByKey,
	Init:      func() interface{} { return entryState{} },
	Step:      entryStep,
	DescribeOperation: func(i, o interface{}) string {
		return fmt.Sprintf("write(%s) -> %s", in(i).Value, describeOutput(out(o)))
	},
	DescribeState: func(s interface{}) string {
		st := s.(entryState)
		if !st.Set {
			return "unset"
		}
		return fmt.Sprintf("%s ref %s", st.Hash, st.Ref)
	},
}

// ---- leases as fencing tokens: after a takeover is acknowledged, the old generation never succeeds ----

func leaseStep(s interface{}, i interface{}, o interface{}) (bool, interface{}) {
	gen, op, res := s.(int64), in(i), out(o)
	switch op.Op {
	case "acquire":
		if res == nil {
			return true, gen // an unanswered takeover: modelled as not yet acknowledged
		}
		if res.Status != "ok" {
			return true, gen
		}
		return res.Version > gen, res.Version
	case "write":
		if res == nil {
			return true, gen
		}
		if res.Status == "ok" {
			return op.Generation == gen, gen
		}
		if res.Code == "stale_lease" || res.Code == "fenced" {
			return op.Generation != gen, gen
		}
		return true, gen
	}
	return false, gen
}

var leaseModel = porcupine.Model{
	Partition: partitionByKey,
	Init:      func() interface{} { return int64(0) },
	Step:      leaseStep,
	DescribeOperation: func(i, o interface{}) string {
		op := in(i)
		if op.Op == "acquire" {
			return "acquire_lease -> " + describeOutput(out(o))
		}
		return fmt.Sprintf("write(gen %d) -> %s", op.Generation, describeOutput(out(o)))
	},
	DescribeState: func(s interface{}) string { return fmt.Sprintf("current gen %d", s.(int64)) },
}

// ---- memory revisions (R06): put with an expected revision is a compare-and-set ----

type memState struct {
	Revision int64 // 0: no live record; -1: a put whose answer was lost landed (revision unseen)
	Value    string
}

func memStep(s interface{}, i interface{}, o interface{}) (bool, interface{}) {
	st, op, res := s.(memState), in(i), out(o)
	unseen := st.Revision == -1
	if st.Revision == -2 {
		return true, st // two unanswered puts in a row: the revision is no longer known
	}
	switch op.Op {
	case "get":
		if res == nil {
			return true, st
		}
		if unseen {
			return res.Version > 0 && res.Value == st.Value, memState{Revision: res.Version, Value: st.Value}
		}
		return res.Version == st.Revision && res.Value == st.Value, st
	case "put":
		applies := unseen && op.Expected > 0 || op.Expected == st.Revision
		if res == nil {
			if unseen {
				return true, memState{Revision: -2}
			}
			if applies {
				return true, memState{Revision: -1, Value: op.Value}
			}
			return true, st
		}
		if res.Status == "ok" {
			return applies && res.Version > st.Revision && res.Version > op.Expected, memState{Revision: res.Version, Value: op.Value}
		}
		if res.Code == "conflict" {
			if unseen {
				return res.Version > 0 && res.Version != op.Expected, memState{Revision: res.Version, Value: st.Value}
			}
			return !applies && res.Version == st.Revision, st
		}
		return true, st
	}
	return false, st
}

var memModel = porcupine.Model{
	Partition: partitionByKey,
	Init:      func() interface{} { return memState{} },
	Step:      memStep,
	DescribeOperation: func(i, o interface{}) string {
		op := in(i)
		if op.Op == "get" {
			return "get -> " + describeOutput(out(o))
		}
		return fmt.Sprintf("put(%s, expect r%d) -> %s", op.Value, op.Expected, describeOutput(out(o)))
	},
	DescribeState: func(s interface{}) string {
		st := s.(memState)
		return fmt.Sprintf("r%d %s", st.Revision, st.Value)
	},
}

var models = map[string]porcupine.Model{
	"head-register":   headModel,
	"idempotent-map":  entryModel,
	"lease-fencing":   leaseModel,
	"memory-revision": memModel,
}
