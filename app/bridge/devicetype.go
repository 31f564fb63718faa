package bridge

import (
	"fmt"
	"slices"
	"strings"
)

// DeviceType is the second level of the device map, CLOiSim's plugin type name as it appears in
// the /control "device_list" answer.
type DeviceType string

// The device types CLOiSim 5.4 reports.
const (
	DeviceNone          DeviceType = "NONE"
	DeviceWorld         DeviceType = "WORLD"
	DeviceGroundTruth   DeviceType = "GROUNDTRUTH"
	DeviceElevator      DeviceType = "ELEVATOR"
	DeviceActor         DeviceType = "ACTOR"
	DeviceMicom         DeviceType = "MICOM"
	DeviceJointControl  DeviceType = "JOINTCONTROL"
	DeviceSensor        DeviceType = "SENSOR"
	DeviceGPS           DeviceType = "GPS"
	DeviceIMU           DeviceType = "IMU"
	DeviceIR            DeviceType = "IR"
	DeviceSonar         DeviceType = "SONAR"
	DeviceContact       DeviceType = "CONTACT"
	DeviceLaser         DeviceType = "LASER"
	DeviceCamera        DeviceType = "CAMERA"
	DeviceDepthCamera   DeviceType = "DEPTHCAMERA"
	DeviceMultiCamera   DeviceType = "MULTICAMERA"
	DeviceRealsense     DeviceType = "REALSENSE"
	DeviceSegmentCamera DeviceType = "SEGMENTCAMERA"
	DeviceLogicalCamera DeviceType = "LOGICALCAMERA"
)

// deviceTypes lists the known types in CLOiSim's enum order.
var deviceTypes = []DeviceType{
	DeviceNone, DeviceWorld, DeviceGroundTruth, DeviceElevator, DeviceActor, DeviceMicom,
	DeviceJointControl, DeviceSensor, DeviceGPS, DeviceIMU, DeviceIR, DeviceSonar, DeviceContact,
	DeviceLaser, DeviceCamera, DeviceDepthCamera, DeviceMultiCamera, DeviceRealsense,
	DeviceSegmentCamera, DeviceLogicalCamera,
}

// DeviceTypes returns the known device types in CLOiSim's order.
func DeviceTypes() []DeviceType { return slices.Clone(deviceTypes) }

// Valid reports whether t is one of the known device types.
func (t DeviceType) Valid() bool { return slices.Contains(deviceTypes, t) }

// ParseDeviceType returns the device type named s (exact, upper case as on the wire), or an
// error listing the known names.
func ParseDeviceType(s string) (DeviceType, error) {
	if t := DeviceType(s); t.Valid() {
		return t, nil
	}
	names := make([]string, len(deviceTypes))
	for i, t := range deviceTypes {
		names[i] = string(t)
	}
	return "", fmt.Errorf("unknown device type %q (known: %s)", s, strings.Join(names, ", "))
}
