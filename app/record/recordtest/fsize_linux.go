package recordtest

import "syscall"

// LimitFileSize makes writes past n bytes of any regular file of the process fail with
// EFBIG, as a full disk fails them with ENOSPC (Go ignores the SIGXFSZ that comes with it),
// and returns what lifts the limit again, which the test's cleanup also calls. It skips the
// test where the limit cannot be set. Tests that call it must not run in parallel, and must
// run in a child process of their own (InChild).
func LimitFileSize(t TB, n uint64) (lift func()) {
	t.Helper()
	var was syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &was); err != nil {
		t.Skip(err)
	}
	lim := was
	lim.Cur = n
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		t.Skip(err)
	}
	lifted := false
	lift = func() {
		if !lifted {
			lifted = true
			if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &was); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Cleanup(lift)
	return lift
}
