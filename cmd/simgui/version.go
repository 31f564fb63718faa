package main

import (
	"encoding/json"
	"fmt"
	"runtime"

	"github.com/spf13/cobra"

	"simgui/app"
	"simgui/app/sensors/jpegenc"
	"simgui/render"
)

type versionInfo struct {
	Version  string `json:"version"`
	Go       string `json:"go"`
	Platform string `json:"platform"`
	// Build is "window" or "headless (...)" (go build -tags headless).
	Build       string `json:"build"`
	JPEGEncoder string `json:"jpegEncoder"`
	// RenderKernels is render.Kernels: what the realistic look's figures depend on.
	RenderKernels string `json:"renderKernels"`
}

func currentVersion() versionInfo {
	return versionInfo{
		Version:       app.Version,
		Go:            runtime.Version(),
		Platform:      runtime.GOOS + "/" + runtime.GOARCH,
		Build:         buildKind,
		JPEGEncoder:   jpegenc.Default().Name(),
		RenderKernels: render.Kernels(),
	}
}

func newVersionCmd() *cobra.Command {
	var asJSON, goJPEG bool
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the simgui version and the JPEG encoder in use",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if goJPEG {
				jpegenc.ForceFallback()
			}
			v := currentVersion()
			if asJSON {
				return json.NewEncoder(cmd.OutOrStdout()).Encode(v)
			}
			enc := v.JPEGEncoder
			if !jpegenc.TurboBuilt {
				enc += " (a static build cannot load libturbojpeg)"
			}
			_, err := fmt.Fprintf(cmd.OutOrStdout(), "simgui %s (%s, %s)\nbuild: %s\njpeg encoder: %s\nrender kernels: %s\n", v.Version, v.Go, v.Platform, v.Build, enc, v.RenderKernels)
			return err
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().BoolVar(&goJPEG, "go-jpeg", false, "use Go's image/jpeg instead of libturbojpeg (also SIMGUI_JPEG=go)")
	return cmd
}
