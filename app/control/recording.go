package control

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
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
	case !filepath.IsLocal(name):
		return "filename must be a relative path inside the record directory (no .. and not absolute)"
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
		return fmt.Sprintf("already recording to %s; send stop_record first", s.recPath)
	}
	path := filepath.Join(s.opts.RecordDir, name)
	stop, err := s.opts.StartRecording(path)
	if err != nil {
		return err.Error()
	}
	s.recStop, s.recPath = stop, path
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
	s.recStop, s.recPath = nil, ""
	return err
}
