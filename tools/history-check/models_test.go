package main

import (
	"math"
	"testing"

	"github.com/anishathalye/porcupine"
)

func op(client int, call, ret int64, i Input, o *Output) porcupine.Operation {
	if o == nil {
		ret = math.MaxInt64
		return porcupine.Operation{ClientId: client, Input: i, Call: call, Return: ret}
	}
	return porcupine.Operation{ClientId: client, Input: i, Call: call, Output: o, Return: ret}
}

func check(t *testing.T, name string, want bool, ops ...porcupine.Operation) {
	t.Helper()
	if got := porcupine.CheckOperations(models[name], ops); got != want {
		t.Fatalf("%s: linearizable = %v, want %v", name, got, want)
	}
}

func TestHeadRegister(t *testing.T) {
	c := func(exp int64, id string) Input { return Input{Key: "b/1", Op: "commit", Expected: exp, Value: id, Run: "run-" + id} }
	ok := func(rev int64, id string) *Output { return &Output{Status: "ok", Version: rev, Value: id} }
	conflict := &Output{Status: "refused", Code: "revision_conflict"}
	// Two concurrent CAS from 0: one wins, the other conflicts.
	check(t, "head-register", true, op(0, 0, 10, c(0, "a"), ok(1, "a")), op(1, 1, 9, c(0, "b"), conflict))
	// Both "win" from revision 0: the lost update a read-modify-write store makes.
	check(t, "head-register", false, op(0, 0, 10, c(0, "a"), ok(1, "a")), op(1, 1, 9, c(0, "b"), ok(1, "b")))
	// A retry of the landed commit answers the same head.
	check(t, "head-register", true, op(0, 0, 1, c(0, "a"), ok(1, "a")), op(0, 2, 3, c(0, "a"), ok(1, "a")))
	// An unanswered commit may have landed: a later load may see it…
	check(t, "head-register", true, op(0, 0, 1, c(0, "a"), nil),
		op(1, 2, 3, Input{Key: "b/1", Op: "load"}, ok(1, "a")))
	// …or not.
	check(t, "head-register", true, op(0, 0, 1, c(0, "a"), nil),
		op(1, 2, 3, Input{Key: "b/1", Op: "load"}, &Output{Status: "ok"}))
}

func TestIdempotentMap(t *testing.T) {
	w := func(h string) Input { return Input{Key: "b/1/k", Op: "write", Value: h} }
	ok := func(ref string) *Output { return &Output{Status: "ok", Ref: ref} }
	check(t, "idempotent-map", true, op(0, 0, 10, w("h1"), ok("r1")), op(1, 1, 9, w("h1"), ok("r1")))
	// Two concurrent duplicates with different refs: the check-then-insert race.
	check(t, "idempotent-map", false, op(0, 0, 10, w("h1"), ok("r1")), op(1, 1, 9, w("h1"), ok("r2")))
	check(t, "idempotent-map", true, op(0, 0, 10, w("h1"), ok("r1")),
		op(1, 1, 9, w("h2"), &Output{Status: "refused", Code: "idempotency_key_reuse"}))
	// A bound refuses a new key, never the retry of an accepted one.
	check(t, "idempotent-map", true, op(0, 0, 1, w("h1"), &Output{Status: "refused", Code: "rate_limited"}))
	check(t, "idempotent-map", false, op(0, 0, 1, w("h1"), ok("r1")),
		op(0, 2, 3, w("h1"), &Output{Status: "refused", Code: "rate_limited"}))
	// An unanswered first write may be what a later retry finds.
	check(t, "idempotent-map", true, op(0, 0, 1, w("h1"), nil), op(1, 2, 3, w("h2"), &Output{Status: "refused", Code: "idempotency_key_reuse"}))
}

func TestLeaseFencing(t *testing.T) {
	acq := func(g int64) *Output { return &Output{Status: "ok", Version: g} }
	wr := func(g int64) Input { return Input{Key: "b", Op: "write", Generation: g} }
	a := Input{Key: "b", Op: "acquire"}
	stale := &Output{Status: "refused", Code: "stale_lease"}
	check(t, "lease-fencing", true, op(0, 0, 1, a, acq(1)), op(0, 2, 3, wr(1), &Output{Status: "ok"}),
		op(1, 4, 5, a, acq(2)), op(0, 6, 7, wr(1), stale))
	// The zombie: gen 1 writes after gen 2's takeover was acknowledged.
	check(t, "lease-fencing", false, op(0, 0, 1, a, acq(1)), op(1, 4, 5, a, acq(2)), op(0, 6, 7, wr(1), &Output{Status: "ok"}))
	// Concurrent with the takeover it may still land.
	check(t, "lease-fencing", true, op(0, 0, 1, a, acq(1)), op(1, 4, 8, a, acq(2)), op(0, 6, 7, wr(1), &Output{Status: "ok"}))
}

func TestMemoryRevision(t *testing.T) {
	put := func(exp int64, v string) Input { return Input{Key: "k", Op: "put", Expected: exp, Value: v} }
	ok := func(r int64) *Output { return &Output{Status: "ok", Version: r} }
	conflict := func(c int64) *Output { return &Output{Status: "refused", Code: "conflict", Version: c} }
	check(t, "memory-revision", true, op(0, 0, 10, put(0, "a"), ok(1)), op(1, 1, 9, put(0, "b"), conflict(1)))
	check(t, "memory-revision", false, op(0, 0, 10, put(1, "a"), ok(2)), op(1, 1, 9, put(1, "b"), ok(2)),
		op(2, -5, -1, put(0, "z"), ok(1)))
	check(t, "memory-revision", true, op(0, 0, 1, put(0, "a"), nil),
		op(1, 2, 3, Input{Key: "k", Op: "get"}, &Output{Status: "ok", Version: 1, Value: "a"}))
}
