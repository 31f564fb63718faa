package plugins

import "testing"

func TestParseContractVersion(t *testing.T) {
	good := map[string]ContractVersion{
		"0.0.0":                            {},
		"1.2.3":                            {1, 2, 3},
		"1.2147483647.0":                   {1, 2147483647, 0},
		"2147483647.2147483647.2147483647": {2147483647, 2147483647, 2147483647},
		"01.002.0003":                      {1, 2, 3},
		"0000000000001.0.0":                {1, 0, 0},
	}
	for s, want := range good {
		got, ok := ParseContractVersion(s)
		if !ok || got != want {
			t.Errorf("ParseContractVersion(%q) = %v, %v; want %v, true", s, got, ok, want)
		}
	}
	for _, s := range []string{"", "1", "1.2", "1.2.3.4", "1.2147483648.0", "99999999999.0.0", "-1.0.0",
		"+1.0.0", " 1.0.0", "1.0.0 ", "v1.0.0", "1..0", "1.a.0", "1.0.0-rc1", "١.٢.٣"} {
		if v, ok := ParseContractVersion(s); ok {
			t.Errorf("ParseContractVersion(%q) = %v, true; want false", s, v)
		}
	}
}
