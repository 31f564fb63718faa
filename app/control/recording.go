package control

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"unicode"
	"unicode/utf8"
)

// cmdStartRecord starts recording every topic to {filename} (an MCAP file under RecordDir):
// "True", or what was wrong. CLOiSim's texts for an empty or too long name.
func cmdStartRecord(s *Service, _ context.Context, req *request, _ []byte) any {
	name := req.Filename
	switch {
	case name == "":
		return "filename is empty!!"
	case utf8.RuneCountInString(name) > maxFilenameLength:
		return fmt.Sprintf("filename is too long (max %d characters)", maxFilenameLength)
	case !filepath.IsLocal(name) || slices.Contains(strings.Split(filepath.ToSlash(name), "/"), ".."):
		return "filename must be a relative path inside the record directory (no .. and not absolute)"
	case strings.ContainsFunc(name, unicode.IsControl):
		return "filename must not hold control characters (a newline, say)"
	case strings.HasSuffix(filepath.ToSlash(name), "/") || strings.HasPrefix(filepath.Base(name), "."):
		return "filename must end in a file's name (not a folder's, and not starting with a dot)"
	case strings.Count(filepath.ToSlash(filepath.Clean(name)), "/") > maxRecordFolders:
		return fmt.Sprintf("filename goes %d folders deep; at most %d", strings.Count(filepath.ToSlash(filepath.Clean(name)), "/"), maxRecordFolders)
	}
	if !strings.EqualFold(filepath.Ext(name), ".mcap") {
		name += ".mcap"
	}
	if s.opts.StartRecording == nil {
		return "record service is unavailable"
	}
	s.recMu.Lock()
	defer s.recMu.Unlock()
	if s.recStop != nil {
		return fmt.Sprintf("already recording to %s; send stop_record first", s.recName)
	}
	path := filepath.Join(s.opts.RecordDir, name)
	f, made, err := openRecordFile(s.opts.RecordDir, name)
	if err != nil {
		// The name as the client gave it: the record directory's own path is not its business.
		return fmt.Sprintf("record %s: %v", name, err)
	}
	stop, err := s.opts.StartRecording(f)
	if err != nil {
		f.Close()
		removeRecordFile(s.opts.RecordDir, name, made)
		return strings.ReplaceAll(err.Error(), path, name) // the name again, not the folder's path
	}
	s.recStop, s.recPath, s.recName = stop, path, name
	s.log.Info("control: recording started", "path", path)
	return resultTrue
}

// cmdStopRecord stops a recording (the file is closed cleanly): "True", also when none runs,
// as CLOiSim answers.
func cmdStopRecord(s *Service, _ context.Context, _ *request, _ []byte) any {
	if err := s.stopRecording(); err != nil {
		return err.Error()
	}
	return resultTrue
}

func (s *Service) stopRecording() error {
	s.recMu.Lock()
	defer s.recMu.Unlock()
	if s.recStop == nil {
		return nil
	}
	err := s.recStop()
	s.log.Info("control: recording stopped", "path", s.recPath, "err", err)
	if err != nil { // the name as the client gave it, as start_record answers
		err = errors.New(strings.ReplaceAll(err.Error(), s.recPath, s.recName))
	}
	s.recStop, s.recPath, s.recName = nil, "", ""
	return err
}

// openRecordFile creates name, a local path (filepath.IsLocal), in dir without following a
// symlink anywhere: it works through an os.Root, which refuses any path resolving outside
// dir; every folder on the way must be a real folder (Lstat; missing ones are made), and the
// file is created O_EXCL|O_NOFOLLOW, so neither an existing file nor a symlink in its place
// is written through.
func openRecordFile(dir, name string) (f *os.File, made []string, err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, nil, err
	}
	defer root.Close()
	defer func() {
		if err != nil { // nothing left behind: the folders made for a file not made go too
			removeFolders(root, made)
			made = nil
		}
	}()
	parts := strings.Split(filepath.ToSlash(filepath.Clean(name)), "/")
	for i := 1; i < len(parts); i++ {
		p := filepath.Join(parts[:i]...)
		fi, err := root.Lstat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if err := root.Mkdir(p, 0o755); err != nil {
				return nil, made, err
			}
			made = append(made, p)
		case err != nil:
			return nil, made, err
		case fi.Mode()&fs.ModeSymlink != 0:
			return nil, made, fmt.Errorf("%s is a symlink; recordings are not written through symlinks", p)
		case !fi.IsDir():
			return nil, made, fmt.Errorf("%s is not a folder", p)
		}
	}
	f, err = root.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return nil, made, errors.New("the file exists (or a symlink has its name); choose another name or remove it")
	}
	return f, made, err
}

// maxRecordFolders bounds how many folders deep a recording's name goes (each one made if
// missing): one request made 200 nested folders.
const maxRecordFolders = 8

// removeRecordFile removes a recording that could not start, and the folders made for it,
// through the same root.
func removeRecordFile(dir, name string, made []string) {
	if root, err := os.OpenRoot(dir); err == nil {
		root.Remove(name)
		removeFolders(root, made)
		root.Close()
	}
}

// removeFolders removes the folders made, deepest first (each only if empty).
func removeFolders(root *os.Root, made []string) {
	for i := len(made) - 1; i >= 0; i-- {
		root.Remove(made[i])
	}
}
