// Command helper is the untrusted program of the sandbox tests: each mode tries
// one thing a verifier must not be able to do (or must be stopped doing) and
// prints what happened. It is built static (CGO_ENABLED=0) so that it runs in a
// FROM scratch image and under bubblewrap alike.
package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: helper MODE [ARGS]")
		os.Exit(2)
	}
	args := os.Args[2:]
	switch os.Args[1] {
	case "echo":
		fmt.Println(strings.Join(args, " "))
	case "exit":
		n, _ := strconv.Atoi(args[0])
		fmt.Fprintln(os.Stderr, "bye")
		os.Exit(n)
	case "id":
		fmt.Printf("uid=%d gid=%d\n", os.Getuid(), os.Getgid())
	case "env":
		for _, kv := range os.Environ() {
			fmt.Println(kv)
		}
	case "cat":
		b, err := os.ReadFile(args[0])
		if err != nil {
			fmt.Println("cat: err", err)
			os.Exit(1)
		}
		os.Stdout.Write(b)
	case "write":
		for _, p := range args {
			if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
				fmt.Println("write", p, "err", err)
			} else {
				fmt.Println("write", p, "ok")
			}
		}
	case "net":
		probeNet(args[0], args[1])
	case "loop":
		for {
		}
	case "sleep":
		time.Sleep(time.Hour)
	case "fork":
		n := 2000
		if len(args) > 0 {
			n, _ = strconv.Atoi(args[0])
		}
		fork(n)
	case "mem":
		mb, _ := strconv.Atoi(args[0])
		var keep [][]byte
		for i := 0; i < mb; i += 16 {
			b := make([]byte, 16<<20)
			for j := range b {
				if j%4096 == 0 {
					b[j] = 1
				}
			}
			keep = append(keep, b)
		}
		fmt.Println("allocated", len(keep)*16, "MiB")
	case "spam":
		n, _ := strconv.Atoi(args[0])
		chunk := []byte(strings.Repeat("y", 64<<10))
		for written := 0; written < n; written += len(chunk) {
			os.Stdout.Write(chunk)
		}
		fmt.Fprintln(os.Stderr, "spam done")
	default:
		fmt.Fprintln(os.Stderr, "unknown mode", os.Args[1])
		os.Exit(2)
	}
}

// probeNet reports whether the host's loopback (TCP and a DNS server on UDP) and
// any route out are reachable. The route probe connects a UDP socket to a
// documentation address, which sends no packet.
func probeNet(tcpPort, dnsPort string) {
	c, err := net.DialTimeout("tcp", "127.0.0.1:"+tcpPort, 2*time.Second)
	report("tcp", err)
	if c != nil {
		c.Close()
	}
	r := &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "udp", "127.0.0.1:"+dnsPort)
	}}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	_, err = r.LookupHost(ctx, "probe.trustlake.test")
	cancel()
	report("dns", err)
	u, err := net.Dial("udp", "192.0.2.1:9")
	report("route", err)
	if u != nil {
		u.Close()
	}
	ifs, _ := net.Interfaces()
	var up []string
	for _, i := range ifs {
		if i.Flags&net.FlagUp != 0 && i.Flags&net.FlagLoopback == 0 {
			up = append(up, i.Name)
		}
	}
	fmt.Println("ifaces:", len(up), strings.Join(up, ","))
}

func report(what string, err error) {
	if err != nil {
		fmt.Println(what+": err", err)
		return
	}
	fmt.Println(what + ": ok")
}

// fork starts sleeping copies of itself until the kernel refuses (at most 2000).
func fork(max int) {
	var n int
	for n = 0; n < max; n++ {
		cmd := exec.Command("/proc/self/exe", "sleep")
		if err := cmd.Start(); err != nil {
			fmt.Printf("forked %d; fork err %v\n", n, err)
			os.Exit(3)
		}
	}
	fmt.Printf("forked %d; no limit hit\n", n)
}
