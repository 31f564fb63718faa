package plugins

import (
	"reflect"
	"testing"
)

func TestClonesAreDeep(t *testing.T) {
	v := builtinVehicle(t, "vehicle.ks0223.v1")
	v.Contract.Sensors[1].Noise = &Noise{Stddev: 1}
	c := v.Clone()
	if !reflect.DeepEqual(v, c) {
		t.Fatal("clone differs")
	}
	c.Body.Mass, c.Drive.Params["accel"], c.Visual.Color = 5, 5, "#000000"
	c.Sensors[0].Params["near"], c.Sensors[0].Pose.X = 5, 5
	c.Contract.Sensors[0].Shape[0], c.Contract.Sensors[1].Noise.Stddev, c.Contract.Actuators[0].Max = 5, 5, 5
	if reflect.DeepEqual(v, c) || v.Body.Mass == 5 || v.Drive.Params["accel"] == 5 || v.Visual.Color == "#000000" ||
		v.Sensors[0].Params["near"] == 5 || v.Sensors[0].Pose.X == 5 || v.Contract.Sensors[0].Shape[0] == 5 ||
		v.Contract.Sensors[1].Noise.Stddev == 5 || v.Contract.Actuators[0].Max == 5 {
		t.Error("vehicle clone shares memory")
	}

	tr := builtinTrack(t, "track.basic_arena.v1")
	ct := tr.Clone()
	if !reflect.DeepEqual(tr, ct) {
		t.Fatal("track clone differs")
	}
	ct.Floor.Length, ct.Elements[0].Points[0][1], ct.SpawnPoints[0].X, ct.Route.Waypoints[1][0] = 1, 1, 1, 1
	if tr.Floor.Length == 1 || tr.Elements[0].Points[0][1] == 1 || tr.SpawnPoints[0].X == 1 || tr.Route.Waypoints[1][0] == 1 {
		t.Error("track clone shares memory")
	}

	l := &Layout{Elements: tr.Elements, SpawnPoints: tr.SpawnPoints, Route: tr.Route}
	cl := l.Clone()
	cl.Elements[0].Points[1][0], cl.Route.Waypoints[0][1] = 7, 7
	if l.Elements[0].Points[1][0] == 7 || l.Route.Waypoints[0][1] == 7 {
		t.Error("layout clone shares memory")
	}
	var nv *VehicleDescriptor
	var nt *TrackDescriptor
	var nl *Layout
	if nv.Clone() != nil || nt.Clone() != nil || nl.Clone() != nil {
		t.Error("nil clones are not nil")
	}
}
