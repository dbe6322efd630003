package main

// A small JSON Schema validator, enough for the diagnostics schema in
// docs/diagnostics.md: type, const, enum, required, properties,
// additionalProperties (bool), items, minimum, minLength, pattern and
// local $ref ("#/$defs/name"). Unknown keywords other than annotations
// are rejected so the schema cannot silently use something unchecked.

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/internal/testrun"
)

type schemaValidator struct {
	root map[string]any
}

var annotationKeywords = map[string]bool{"$schema": true, "title": true, "description": true, "$defs": true}

func (v *schemaValidator) validate(schema map[string]any, inst any, path string) []string {
	var errs []string
	keys := make([]string, 0, len(schema))
	for k := range schema {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		sv := schema[k]
		switch k {
		case "$ref":
			ref, _ := sv.(string)
			target, err := v.resolve(ref)
			if err != nil {
				errs = append(errs, fmt.Sprintf("%s: %v", path, err))
				continue
			}
			errs = append(errs, v.validate(target, inst, path)...)
		case "type":
			if !typeMatches(sv, inst) {
				errs = append(errs, fmt.Sprintf("%s: want type %v, got %T", path, sv, inst))
			}
		case "const":
			if !jsonEqual(sv, inst) {
				errs = append(errs, fmt.Sprintf("%s: want const %v, got %v", path, sv, inst))
			}
		case "enum":
			ok := false
			for _, e := range sv.([]any) {
				if jsonEqual(e, inst) {
					ok = true
				}
			}
			if !ok {
				errs = append(errs, fmt.Sprintf("%s: %v not in enum %v", path, inst, sv))
			}
		case "required":
			obj, ok := inst.(map[string]any)
			if !ok {
				continue
			}
			for _, r := range sv.([]any) {
				if _, ok := obj[r.(string)]; !ok {
					errs = append(errs, fmt.Sprintf("%s: missing required %q", path, r))
				}
			}
		case "properties":
			obj, ok := inst.(map[string]any)
			if !ok {
				continue
			}
			for name, ps := range sv.(map[string]any) {
				if val, ok := obj[name]; ok {
					errs = append(errs, v.validate(ps.(map[string]any), val, path+"."+name)...)
				}
			}
		case "additionalProperties":
			obj, ok := inst.(map[string]any)
			if !ok || sv.(bool) {
				continue
			}
			props, _ := schema["properties"].(map[string]any)
			for name := range obj {
				if _, ok := props[name]; !ok {
					errs = append(errs, fmt.Sprintf("%s: unexpected property %q", path, name))
				}
			}
		case "items":
			arr, ok := inst.([]any)
			if !ok {
				continue
			}
			for i, el := range arr {
				errs = append(errs, v.validate(sv.(map[string]any), el, fmt.Sprintf("%s[%d]", path, i))...)
			}
		case "minimum":
			if n, ok := inst.(float64); ok && n < sv.(float64) {
				errs = append(errs, fmt.Sprintf("%s: %v below minimum %v", path, n, sv))
			}
		case "minLength":
			if s, ok := inst.(string); ok && float64(len([]rune(s))) < sv.(float64) {
				errs = append(errs, fmt.Sprintf("%s: %q shorter than %v", path, s, sv))
			}
		case "pattern":
			if s, ok := inst.(string); ok && !regexp.MustCompile(sv.(string)).MatchString(s) {
				errs = append(errs, fmt.Sprintf("%s: %q does not match %s", path, s, sv))
			}
		default:
			if !annotationKeywords[k] {
				errs = append(errs, fmt.Sprintf("%s: schema keyword %q is not supported by the test validator", path, k))
			}
		}
	}
	return errs
}

func (v *schemaValidator) resolve(ref string) (map[string]any, error) {
	name, ok := strings.CutPrefix(ref, "#/$defs/")
	if !ok {
		return nil, fmt.Errorf("unsupported $ref %q", ref)
	}
	defs, _ := v.root["$defs"].(map[string]any)
	s, ok := defs[name].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("unknown $ref %q", ref)
	}
	return s, nil
}

func typeMatches(t any, inst any) bool {
	switch t := t.(type) {
	case []any:
		for _, one := range t {
			if typeMatches(one, inst) {
				return true
			}
		}
		return false
	case string:
		switch t {
		case "object":
			_, ok := inst.(map[string]any)
			return ok
		case "array":
			_, ok := inst.([]any)
			return ok
		case "string":
			_, ok := inst.(string)
			return ok
		case "boolean":
			_, ok := inst.(bool)
			return ok
		case "null":
			return inst == nil
		case "number":
			_, ok := inst.(float64)
			return ok
		case "integer":
			n, ok := inst.(float64)
			return ok && n == float64(int64(n))
		}
	}
	return false
}

func jsonEqual(a, b any) bool { return reflect.DeepEqual(a, b) }

// loadSchema extracts the schema block of docs/diagnostics.md.
func loadSchema(t *testing.T) *schemaValidator {
	t.Helper()
	doc := testrun.ReadDoc(t, "diagnostics.md")
	const begin, end = "<!-- diagnostics-schema:begin -->", "<!-- diagnostics-schema:end -->"
	i, j := strings.Index(doc, begin), strings.Index(doc, end)
	if i < 0 || j < i {
		t.Fatal("docs/diagnostics.md lacks the schema markers")
	}
	block := strings.TrimSpace(doc[i+len(begin) : j])
	block = strings.TrimPrefix(block, "```json")
	block = strings.TrimSuffix(block, "```")
	var root map[string]any
	if err := json.Unmarshal([]byte(block), &root); err != nil {
		t.Fatalf("the documented schema is not valid JSON: %v", err)
	}
	return &schemaValidator{root: root}
}

func validateDiagnosticsJSON(t *testing.T, out []byte) []string {
	t.Helper()
	v := loadSchema(t)
	var inst any
	if err := json.Unmarshal(out, &inst); err != nil {
		return []string{fmt.Sprintf("output is not JSON: %v\n%s", err, out)}
	}
	return v.validate(v.root, inst, "$")
}

// jsonDiag is what the tests read of a diagnostic of the JSON document.
type jsonDiag struct{ Code, File, Message string }

// checkDiagnosticsJSON checks that out is a diagnostics document that
// follows the documented schema (an error of t otherwise) and returns its
// diagnostics.
func checkDiagnosticsJSON(t *testing.T, out string) []jsonDiag {
	t.Helper()
	if errs := validateDiagnosticsJSON(t, []byte(out)); len(errs) > 0 {
		t.Errorf("json output violates the documented schema:\n%s\n%s", strings.Join(errs, "\n"), out)
	}
	var doc struct{ Diagnostics []jsonDiag }
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Diagnostics
}

func TestSchemaValidatorRejects(t *testing.T) {
	bad := []string{
		`{"version":2,"diagnostics":[]}`,
		`{"version":1}`,
		`{"version":1,"diagnostics":[],"extra":true}`,
		`{"version":1,"diagnostics":[{"severity":"fatal","code":"E3001","message":"m","file":"f","span":{"start":{"offset":0,"line":1,"column":1},"end":{"offset":0,"line":1,"column":1}},"label":"","related":[],"notes":[],"hint":""}]}`,
		`{"version":1,"diagnostics":[{"severity":"error","code":"X1","message":"m","file":"f","span":{"start":{"offset":0,"line":1,"column":1},"end":{"offset":0,"line":1,"column":1}},"label":"","related":[],"notes":[],"hint":""}]}`,
		`{"version":1,"diagnostics":[{"severity":"error","code":"E3001","message":"m","file":"f","span":{"start":{"offset":0,"line":0,"column":1},"end":{"offset":0,"line":1,"column":1}},"label":"","related":[],"notes":[],"hint":""}]}`,
		`{"version":1,"diagnostics":[{"severity":"error","code":"E3001","message":"m","file":"f","span":{"start":{"offset":0,"line":1,"column":1},"end":{"offset":0,"line":1,"column":1}},"label":"","related":[],"notes":null,"hint":""}]}`,
	}
	for _, b := range bad {
		if errs := validateDiagnosticsJSON(t, []byte(b)); len(errs) == 0 {
			t.Errorf("schema accepted %s", b)
		}
	}
	good := `{"version":1,"diagnostics":[{"severity":"error","code":"E3001","message":"m","file":"f","span":{"start":{"offset":0,"line":1,"column":1},"end":{"offset":0,"line":1,"column":1}},"label":"","related":[{"file":"f","span":{"start":{"offset":0,"line":1,"column":1},"end":{"offset":1,"line":1,"column":2}},"message":"r"}],"notes":["n"],"hint":""}]}`
	if errs := validateDiagnosticsJSON(t, []byte(good)); len(errs) != 0 {
		t.Errorf("schema rejected a valid document: %v", errs)
	}
}
