// Package recordtest helps tests of recordings: a full disk, made with the process's file
// size limit.
package recordtest

import (
	"os"
	"os/exec"
	"strings"
)

// TB is what LimitFileSize needs of a test (*testing.T and *testing.B have it); an interface,
// so that no package outside the tests links the testing package.
type TB interface {
	Helper()
	Name() string
	Skip(args ...any)
	Fatal(args ...any)
	Cleanup(func())
}

// childEnv names, in a child process InChild starts, the test it runs.
const childEnv = "SIMGUI_RECORDTEST_CHILD"

// InChild runs the calling test again in a child process of the test binary, alone and
// without go test's test log, and reports whether the caller is that child: the parent gets
// false and the child's verdict (its failure, its skip), and returns; the child gets true and
// goes on with the test. A test that limits the process's file size (LimitFileSize) must run
// so: under the limit go test's own log of the files a test opens fails to grow, and go test
// fails the whole package for it ("testing: can't write testlog.txt: file too large").
func InChild(t TB) bool {
	t.Helper()
	if os.Getenv(childEnv) == t.Name() {
		return true
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), childEnv+"="+t.Name())
	out, err := cmd.CombinedOutput()
	switch {
	case err != nil:
		t.Fatal("in a child process: ", err, "\n", string(out))
	case strings.Contains(string(out), "--- SKIP: "+t.Name()):
		t.Skip("in a child process:\n", string(out))
	case !strings.Contains(string(out), "--- PASS: "+t.Name()):
		t.Fatal("in a child process the test did not run:\n", string(out))
	}
	return false
}
