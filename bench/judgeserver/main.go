// Command judgeserver is a local chat-completions endpoint for bench/judge.sh:
// every request is read in full, held for -latency, and answered with a
// fixed rubric verdict. It prints its address on stdout, and the number of
// requests served on stderr when stopped (SIGTERM).
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"
)

func main() {
	latency := flag.Duration("latency", 50*time.Millisecond, "time each request is held")
	flag.Parse()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var served atomic.Int64
	reply := []byte(`{"id":"b","model":"bench-judge","choices":[{"index":0,"message":{"role":"assistant","content":"{\"verdict\": \"failure\", \"confidence\": 0.9, \"evidence\": \"bench\"}"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1000,"completion_tokens":20}}`)
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		time.Sleep(*latency)
		w.Header().Set("Content-Type", "application/json")
		w.Write(reply)
		served.Add(1)
	})}
	fmt.Printf("http://%s\n", ln.Addr())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go srv.Serve(ln)
	<-ctx.Done()
	srv.Close()
	fmt.Fprintf(os.Stderr, "judgeserver: %d requests\n", served.Load())
}
