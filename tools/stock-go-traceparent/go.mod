module smtc.local/stock-go-traceparent

go 1.26.0

require (
	go.opentelemetry.io/otel v1.47.0
	go.opentelemetry.io/otel/trace v1.47.0
)

require github.com/cespare/xxhash/v2 v2.3.0 // indirect
