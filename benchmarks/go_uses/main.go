// go_uses: every use of every function, method and named type defined under ROOT, as the Go type
// checker resolves it (go/types over the sources; imports from GOPATH). Ground truth for the Go
// references and impact suites (benchmarks/go_suites.sh), as jedi is for Python.
// Usage: GOPATH=/usr/share/gocode GO111MODULE=off go_uses ROOT  (JSON lines: name, path, line, uses)
package main

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

type def struct {
	Name string   `json:"name"`
	Path string   `json:"path"`
	Line int      `json:"line"`
	Uses [][2]any `json:"uses"`
	seen map[string]bool
}

// wanted: functions, methods and named types (not type parameters), what ctags calls definitions.
func wanted(obj types.Object) bool {
	switch o := obj.(type) {
	case *types.Func:
		return true
	case *types.TypeName:
		_, param := o.Type().(*types.TypeParam)
		return !param && o.Parent() != nil && o.Parent() == o.Pkg().Scope()
	}
	return false
}

func main() {
	root, _ := filepath.Abs(os.Args[1])
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "source", nil)
	defs := map[string]*def{}
	rel := func(p token.Position) (string, bool) {
		r, err := filepath.Rel(root, p.Filename)
		if err != nil || strings.HasPrefix(r, "..") {
			return "", false
		}
		return r, true
	}
	check := func(dir string, names []string) {
		var files []*ast.File
		for _, n := range names {
			f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, 0)
			if err == nil {
				files = append(files, f)
			}
		}
		if len(files) == 0 {
			return
		}
		info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}}
		conf := types.Config{Importer: imp, Error: func(error) {}}
		conf.Check(files[0].Name.Name, fset, files, info)
		for id, obj := range info.Defs {
			if wanted(obj) {
				fn := obj
				p := fset.Position(fn.Pos())
				if r, ok := rel(p); ok {
					k := fmt.Sprintf("%s:%d", r, p.Line)
					if defs[k] == nil {
						defs[k] = &def{Name: id.Name, Path: r, Line: p.Line, seen: map[string]bool{}}
					}
				}
			}
		}
		for id, obj := range info.Uses {
			if !wanted(obj) {
				continue
			}
			fn := obj
			p := fset.Position(fn.Pos())
			r, ok := rel(p)
			if !ok {
				continue
			}
			k := fmt.Sprintf("%s:%d", r, p.Line)
			if defs[k] == nil {
				defs[k] = &def{Name: fn.Name(), Path: r, Line: p.Line, seen: map[string]bool{}}
			}
			u := fset.Position(id.Pos())
			ur, ok := rel(u)
			if !ok {
				continue
			}
			uk := fmt.Sprintf("%s:%d", ur, u.Line)
			if !defs[k].seen[uk] {
				defs[k].seen[uk] = true
				defs[k].Uses = append(defs[k].Uses, [2]any{ur, u.Line})
			}
		}
	}
	filepath.Walk(root, func(path string, info os.FileInfo, err error) error {
		if err != nil || !info.IsDir() {
			return nil
		}
		b := filepath.Base(path)
		if path != root && (strings.HasPrefix(b, ".") || strings.HasPrefix(b, "_") || b == "testdata" || b == "vendor") {
			return filepath.SkipDir
		}
		pkg, err := build.ImportDir(path, 0)
		if err != nil {
			return nil
		}
		check(path, append(append([]string{}, pkg.GoFiles...), pkg.TestGoFiles...))
		check(path, pkg.XTestGoFiles)
		return nil
	})
	keys := make([]string, 0, len(defs))
	for k := range defs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	enc := json.NewEncoder(os.Stdout)
	for _, k := range keys {
		enc.Encode(defs[k])
	}
}
