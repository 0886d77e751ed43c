// Stock OpenTelemetry Go's W3C Trace Context and W3C Baggage extraction
// (go.opentelemetry.io/otel v1.47.0), one JSON line of header lines in, one verdict out: a
// referee, written by other hands than the kit's, of what a vendor continues and which baggage
// members it reads (test/traces/stock-parsers-referee.test.ts, stock-baggage-referee.test.ts).
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"os"

	"go.opentelemetry.io/otel/baggage"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

type result struct {
	Valid   bool   `json:"valid"`
	TraceID string `json:"traceId,omitempty"`
	SpanID  string `json:"spanId,omitempty"`
	// Every baggage member read, key and decoded value, in order; empty when none (or all dropped).
	Baggage [][2]string `json:"baggage"`
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	out := json.NewEncoder(os.Stdout)
	for in.Scan() {
		var headers map[string][]string
		if err := json.Unmarshal(in.Bytes(), &headers); err != nil {
			os.Exit(2)
		}
		h := http.Header{}
		for k, vs := range headers {
			for _, v := range vs {
				h.Add(k, v)
			}
		}
		sc := trace.SpanContextFromContext(propagation.TraceContext{}.Extract(context.Background(), propagation.HeaderCarrier(h)))
		r := result{Valid: sc.IsValid(), Baggage: [][2]string{}}
		for _, m := range baggage.FromContext(propagation.Baggage{}.Extract(context.Background(), propagation.HeaderCarrier(h))).Members() {
			r.Baggage = append(r.Baggage, [2]string{m.Key(), m.Value()})
		}
		if r.Valid {
			r.TraceID = sc.TraceID().String()
			r.SpanID = sc.SpanID().String()
		}
		if err := out.Encode(r); err != nil {
			os.Exit(3)
		}
	}
}
