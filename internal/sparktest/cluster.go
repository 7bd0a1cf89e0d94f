// Package sparktest starts a real Apache Spark standalone cluster for tests
// and benchmarks: a master, workers and a Spark Connect server, each a
// separate JVM process started from the pyspark package of the project's
// venv (python/requirements-spark.txt), and stops all of them.
package sparktest

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Options configure Start. Zero values mean the defaults.
type Options struct {
	SparkHome string // the pyspark package folder (bin/spark-class inside); required
	Dir       string // logs and work folders; required
	Workers   int    // default 2 (1 core, 1g each)
}

// startTimeout bounds the wait for the Connect server: about 20 s on an idle
// 2-core machine, minutes under heavy load.
const startTimeout = 10 * time.Minute

// Cluster is a running standalone cluster with a Connect server.
type Cluster struct {
	Remote string // sc://127.0.0.1:PORT
	Master string // spark://127.0.0.1:PORT
	Dir    string
	procs  []*proc
	Took   time.Duration // from the first process started to the Connect port open
}

// proc is a started process; done closes when it has exited.
type proc struct {
	name string
	cmd  *exec.Cmd
	done chan struct{}
}

// SparkHome finds the pyspark package in the venv at repo/.venv.
func SparkHome(repo string) (string, error) {
	matches, _ := filepath.Glob(filepath.Join(repo, ".venv", "lib", "python3*", "site-packages", "pyspark", "bin", "spark-class"))
	if len(matches) == 0 {
		return "", fmt.Errorf("no pyspark in %s (make venv installs python/requirements-spark.txt)", filepath.Join(repo, ".venv"))
	}
	return filepath.Dir(filepath.Dir(matches[0])), nil
}

// Start launches the master, the workers and the Connect server and waits
// until the server answers on its port.
func Start(ctx context.Context, opts Options) (*Cluster, error) {
	opts.Workers = cmp.Or(opts.Workers, 2)
	if _, err := exec.LookPath("java"); err != nil && os.Getenv("JAVA_HOME") == "" {
		return nil, fmt.Errorf("no java on PATH and no JAVA_HOME (Spark 4 wants Java 17 or 21)")
	}
	ports, err := freePorts(2)
	if err != nil {
		return nil, err
	}
	c := &Cluster{Dir: opts.Dir, Master: fmt.Sprintf("spark://127.0.0.1:%d", ports[0]), Remote: fmt.Sprintf("sc://127.0.0.1:%d", ports[1])}
	begin := time.Now()
	bin := func(name string) string { return filepath.Join(opts.SparkHome, "bin", name) }
	if err := c.spawn(opts, "master", bin("spark-class"), "org.apache.spark.deploy.master.Master",
		"--host", "127.0.0.1", "--port", strconv.Itoa(ports[0]), "--webui-port", "0"); err != nil {
		return nil, err
	}
	for i := 1; i <= opts.Workers; i++ {
		work := filepath.Join(opts.Dir, fmt.Sprintf("worker%d", i))
		if err := c.spawn(opts, fmt.Sprintf("worker%d", i), bin("spark-class"), "org.apache.spark.deploy.worker.Worker",
			"--host", "127.0.0.1", "--cores", "1", "--memory", "1g",
			"--webui-port", "0", "--work-dir", work, c.Master); err != nil {
			c.Stop()
			return nil, err
		}
	}
	if err := c.spawn(opts, "connect", bin("spark-submit"),
		"--class", "org.apache.spark.sql.connect.service.SparkConnectServer",
		"--master", c.Master, "--name", "trustlake-test",
		"--driver-memory", "1g", "--executor-memory", "768m",
		"--conf", "spark.connect.grpc.binding.port="+strconv.Itoa(ports[1]),
		"--conf", "spark.ui.enabled=false",
		"--conf", "spark.sql.shuffle.partitions=4",
		"--conf", "spark.local.dir="+filepath.Join(opts.Dir, "local")); err != nil {
		c.Stop()
		return nil, err
	}
	if err := c.waitConnect(ctx, opts, ports[1]); err != nil {
		c.Stop()
		return nil, err
	}
	c.Took = time.Since(begin)
	return c, nil
}

// spawn starts one process in its own process group, output to DIR/NAME.log.
func (c *Cluster) spawn(opts Options, name, prog string, args ...string) error {
	for _, d := range []string{opts.Dir, filepath.Join(opts.Dir, "local")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	log, err := os.Create(filepath.Join(opts.Dir, name+".log"))
	if err != nil {
		return err
	}
	cmd := exec.Command(prog, args...)
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Env = append(os.Environ(),
		"SPARK_HOME="+opts.SparkHome,
		"SPARK_LOG_DIR="+opts.Dir,
		"SPARK_PID_DIR="+opts.Dir,
		"SPARK_LOCAL_IP=127.0.0.1",
		"SPARK_LOCAL_DIRS="+filepath.Join(opts.Dir, "local"),
		"SPARK_WORKER_DIR="+filepath.Join(opts.Dir, name),
	)
	if err := cmd.Start(); err != nil {
		log.Close()
		return fmt.Errorf("start spark %s: %w", name, err)
	}
	log.Close() // the child holds its own descriptor
	p := &proc{name: name, cmd: cmd, done: make(chan struct{})}
	c.procs = append(c.procs, p)
	go func() { cmd.Wait(); close(p.done) }() //nolint:errcheck // reaped here; Stop signals the group
	return nil
}

// waitConnect waits for the Connect server's log line and open port.
func (c *Cluster) waitConnect(ctx context.Context, opts Options, port int) error {
	deadline := time.Now().Add(startTimeout)
	logName := filepath.Join(opts.Dir, "connect.log")
	for time.Now().Before(deadline) {
		if err := ctx.Err(); err != nil {
			return err
		}
		b, _ := os.ReadFile(logName)
		if strings.Contains(string(b), "Spark Connect server started") {
			conn, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), time.Second)
			if err == nil {
				conn.Close()
				return nil
			}
		}
		for _, p := range c.procs {
			select {
			case <-p.done:
				return fmt.Errorf("spark %s exited early: %s", p.name, tail(filepath.Join(opts.Dir, p.name+".log"), 3))
			default:
			}
		}
		time.Sleep(250 * time.Millisecond)
	}
	return fmt.Errorf("spark connect server did not start within %s; logs in %s: %s", startTimeout, opts.Dir, tail(logName, 5))
}

// Stop terminates every process it started (its process group: the JVM
// and the executors a worker forked), the Connect server first.
func (c *Cluster) Stop() error {
	var errs []error
	for i := len(c.procs) - 1; i >= 0; i-- {
		pgid := c.procs[i].cmd.Process.Pid
		_ = syscall.Kill(-pgid, syscall.SIGTERM)
		gone := false
		for range 60 {
			if syscall.Kill(-pgid, 0) != nil {
				gone = true
				break
			}
			time.Sleep(250 * time.Millisecond)
		}
		if !gone {
			if err := syscall.Kill(-pgid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
				errs = append(errs, fmt.Errorf("kill spark process group %d: %w", pgid, err))
			}
		}
	}
	c.procs = nil
	return errors.Join(errs...)
}

func freePorts(n int) ([]int, error) {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	var ports []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("find a free port: %w", err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

func tail(name string, n int) string {
	b, err := os.ReadFile(name)
	if err != nil {
		return err.Error()
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}
