package api

import (
	"math"
	"strings"
	"testing"

	"simgui/app/scenario"
)

// FuzzDecodeRequest feeds request bodies to the API's decoder and to what turns a request
// into world input: a body is refused or yields a request within the limits, and a step's
// command is finite and in −1..1 (brake 0..1) whatever the numbers and key/values said.
func FuzzDecodeRequest(f *testing.F) {
	f.Add(true, []byte(rusimReset))
	f.Add(false, []byte(rusimStep))
	f.Add(false, []byte(`{"discreteAction":"DirLeft","extensions":[{"key":"control.vertical_norm","value":-2}]}`))
	f.Add(false, []byte(`{"actions":[{"targetAgentId":"a","throttle":1e308},{"steer":-1e-320}]}`))
	f.Add(true, []byte(`{"agents":[{"agentId":"a","vehicleParams":[{"key":"camera.width","value":"84"},{"key":"camera.brightness","value":"1.5"}],"trackParams":[{"key":"spawn.position","value":"1,0,2"}]}]}`))
	f.Add(true, []byte(`{"trackParams":[{"key":"route.waypoints","value":"0,0,0;1,0,1|2,0,2"},{"key":"spawn.yaw_deg","value":"45"}]}`))
	f.Add(true, []byte("["+strings.Repeat(`{},`, 100)+"{}]"))
	f.Fuzz(func(t *testing.T, reset bool, body []byte) {
		if reset {
			var req ResetRequest
			if decodeRequest(body, &req) != nil {
				return
			}
			if len(req.Agents) > scenario.MaxAgents {
				t.Fatalf("%d agents passed", len(req.Agents))
			}
			for _, ar := range append([]AgentRequest{{VehicleParams: req.VehicleParams, TrackParams: req.TrackParams}}, req.Agents...) {
				var ap agentPlan
				if ap.splitVehicleParams(mergeKVs(req.VehicleParams, ar.VehicleParams)) == nil {
					if ap.width != 0 && (ap.width < minFrameSide || ap.width > maxFrameWidth) ||
						ap.height != 0 && (ap.height < minFrameSide || ap.height > maxFrameHeight) {
						t.Fatalf("frame %d×%d passed", ap.width, ap.height)
					}
					for k, x := range ap.image {
						if !(x >= 0 && x <= 4) {
							t.Fatalf("%s = %g passed", k, x)
						}
					}
				}
				worldTrackParams(ar.TrackParams)
			}
			return
		}
		var req StepRequest
		if decodeRequest(body, &req) != nil {
			return
		}
		if len(req.Actions) > MaxActions {
			t.Fatalf("%d actions passed", len(req.Actions))
		}
		acts := append([]StepAction{{Throttle: req.Throttle, Steer: req.Steer, Brake: req.Brake,
			Extensions: req.Extensions, DiscreteAction: req.DiscreteAction}}, req.Actions...)
		for _, a := range acts {
			cmd, echo, err := commandFrom(a.Throttle, a.Steer, a.Brake, a.DiscreteAction, a.Extensions)
			if err != nil {
				continue
			}
			for _, v := range []float64{cmd.Throttle, cmd.Steer, cmd.Vertical, cmd.Left, cmd.Right, echo.left, echo.right} {
				if !(math.Abs(v) <= 1) {
					t.Fatalf("command %+v from %+v", cmd, a)
				}
			}
			if !(cmd.Brake >= 0 && cmd.Brake <= 1) {
				t.Fatalf("brake %g", cmd.Brake)
			}
		}
	})
}
