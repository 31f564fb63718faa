package plugins

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// ReadDeviceContract parses device-contract.json in either shape found in the wild: the bare
// DeviceContract (what simgui writes, and what rusim's exporter is specified to write) or the
// Editor asset's wrapper {"contractVersion": {...}, "descriptor": {...}} that rusim's templates
// hold. The wrapper's contractVersion is not kept: the plugin version lives in the descriptor.
func ReadDeviceContract(b []byte) (*DeviceContract, error) {
	body, version, err := unwrapContract(b)
	if err != nil {
		return nil, fmt.Errorf("device-contract.json: %w", err)
	}
	if version != nil && !version.IsValid() {
		return nil, fmt.Errorf("device-contract.json: contractVersion %s has a negative component", version)
	}
	var c DeviceContract
	if err := json.Unmarshal(body, &c); err != nil {
		return nil, fmt.Errorf("device-contract.json: %w", err)
	}
	if c.DeviceID == "" {
		return nil, fmt.Errorf("device-contract.json: deviceId is empty")
	}
	return &c, nil
}

// unwrapContract returns the contract of device-contract.json's text b, and the wrapper's
// contractVersion when b is the Editor asset's wrapper (nil when the wrapper has none or b is
// the bare contract).
func unwrapContract(b []byte) (body []byte, version *ContractVersion, err error) {
	var probe struct {
		ContractVersion *ContractVersion `json:"contractVersion"`
		Descriptor      json.RawMessage  `json:"descriptor"`
	}
	if err := json.Unmarshal(b, &probe); err != nil {
		return nil, nil, err
	}
	if len(probe.Descriptor) == 0 || bytes.Equal(probe.Descriptor, []byte("null")) {
		return b, nil, nil
	}
	return probe.Descriptor, probe.ContractVersion, nil
}

// WrappedContractVersion reports whether device-contract.json's text b is the Editor asset's
// wrapper with a contractVersion, and that version: what a tool that writes the contract back
// keeps, so that the file keeps its shape.
func WrappedContractVersion(b []byte) (ContractVersion, bool) {
	_, v, err := unwrapContract(b)
	if err != nil || v == nil {
		return ContractVersion{}, false
	}
	return *v, true
}

// ReadVehicle parses a vehicle's descriptor.json and, when contractJSON is not empty, its
// device-contract.json. Fields simgui does not know are ignored (Unity exports may carry
// more); missing simulation data stays nil (see VehicleDescriptor.WithFallback). DeviceType is
// taken from the contract when the descriptor does not repeat it.
func ReadVehicle(descriptorJSON, contractJSON []byte) (*VehicleDescriptor, error) {
	var v VehicleDescriptor
	if err := json.Unmarshal(descriptorJSON, &v); err != nil {
		return nil, fmt.Errorf("descriptor.json: %w", err)
	}
	if err := checkBase(v.ID, v.DisplayName, v.Version); err != nil {
		return nil, fmt.Errorf("descriptor.json: %w", err)
	}
	if len(bytes.TrimSpace(contractJSON)) > 0 {
		c, err := ReadDeviceContract(contractJSON)
		if err != nil {
			return nil, err
		}
		v.Contract = c
		if v.DeviceType == "" {
			v.DeviceType = c.DeviceType
		}
	}
	return &v, nil
}

// ReadTrack parses a track's descriptor.json. parametersSchemaJson, when present, must be JSON
// (as rusim's Validate Plugins checks); it is compiled as a schema on first use.
func ReadTrack(descriptorJSON []byte) (*TrackDescriptor, error) {
	var t TrackDescriptor
	if err := json.Unmarshal(descriptorJSON, &t); err != nil {
		return nil, fmt.Errorf("descriptor.json: %w", err)
	}
	if err := checkBase(t.ID, t.DisplayName, t.Version); err != nil {
		return nil, fmt.Errorf("descriptor.json: %w", err)
	}
	if t.ParametersSchemaJSON != "" && !json.Valid([]byte(t.ParametersSchemaJSON)) {
		return nil, fmt.Errorf("descriptor.json: %s: parametersSchemaJson is not valid JSON", t.ID)
	}
	return &t, nil
}

// checkBase checks PluginDescriptorBase as rusim's validator does: id and displayName set,
// version valid.
func checkBase(id, displayName string, v ContractVersion) error {
	switch {
	case id == "":
		return fmt.Errorf("id is empty")
	case displayName == "":
		return fmt.Errorf("%s: displayName is empty", id)
	case !v.IsValid():
		return fmt.Errorf("%s: version %s has a negative component", id, v)
	}
	return nil
}
