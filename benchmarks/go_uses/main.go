// go_uses: every use of every function, method and named type defined under ROOT, as the Go type
// checker resolves it (go/types over the sources; imports from GOPATH). Ground truth for the Go
// references and impact suites (benchmarks/go_suites.sh), as jedi is for Python.
// Usage: GOPATH=/usr/share/gocode GO111MODULE=off go_uses ROOT  (JSON lines: name, path, line, uses)
//
//	GOPATH=/usr/share/gocode GO111MODULE=off go_uses -implements ROOT  (see implementations)
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

// packages calls fn with every Go package folder under root (hidden, "_", testdata and vendor folders skipped).
func packages(root string, fn func(path string, pkg *build.Package)) {
	filepath.Walk(root, func(path string, info os.FileInfo, err error) error {
		if err != nil || !info.IsDir() {
			return nil
		}
		b := filepath.Base(path)
		if path != root && (strings.HasPrefix(b, ".") || strings.HasPrefix(b, "_") || b == "testdata" || b == "vendor") {
			return filepath.SkipDir
		}
		if pkg, err := build.ImportDir(path, 0); err == nil {
			fn(path, pkg)
		}
		return nil
	})
}

// implementations: with -implements, every interface with methods defined under ROOT (outside tests) and the
// named types under ROOT whose value or pointer satisfies it, by go/types (signatures included). JSON
// lines: name, path, line, implementers [[path, line], ...].
func implementations(root string) {
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "source", nil)
	src := filepath.Join(build.Default.GOPATH, "src")
	type named struct {
		obj  *types.TypeName
		path string
		line int
	}
	var ifaces, concrete []named
	packages(root, func(path string, _ *build.Package) {
		ipath, err := filepath.Rel(src, path)
		if err != nil {
			return
		}
		pkg, err := imp.Import(filepath.ToSlash(ipath))
		if err != nil || pkg == nil {
			return
		}
		scope := pkg.Scope()
		for _, name := range scope.Names() {
			tn, ok := scope.Lookup(name).(*types.TypeName)
			if !ok || tn.IsAlias() {
				continue
			}
			p := fset.Position(tn.Pos())
			r, err := filepath.Rel(root, p.Filename)
			if err != nil || strings.HasPrefix(r, "..") {
				continue
			}
			n := named{tn, r, p.Line}
			if it, ok := tn.Type().Underlying().(*types.Interface); ok {
				if it.NumMethods() > 0 {
					ifaces = append(ifaces, n)
				}
			} else {
				concrete = append(concrete, n)
			}
		}
	})
	enc := json.NewEncoder(os.Stdout)
	for _, i := range ifaces {
		it := i.obj.Type().Underlying().(*types.Interface)
		var found [][2]any
		for _, c := range concrete {
			if types.Implements(c.obj.Type(), it) || types.Implements(types.NewPointer(c.obj.Type()), it) {
				found = append(found, [2]any{c.path, c.line})
			}
		}
		enc.Encode(map[string]any{"name": i.obj.Name(), "path": i.path, "line": i.line, "implementers": found})
	}
}

func main() {
	if len(os.Args) > 2 && os.Args[1] == "-implements" {
		root, _ := filepath.Abs(os.Args[2])
		implementations(root)
		return
	}
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
	packages(root, func(path string, pkg *build.Package) {
		check(path, append(append([]string{}, pkg.GoFiles...), pkg.TestGoFiles...))
		check(path, pkg.XTestGoFiles)
	})
	keys := make([]string, 0, len(defs))
	for k := range defs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	enc := json.NewEncoder(os.Stdout)
	for _, k := range keys {
		uses := defs[k].Uses // in the order the type checker's map gave them: sorted, so runs agree
		sort.Slice(uses, func(i, j int) bool {
			if uses[i][0] != uses[j][0] {
				return uses[i][0].(string) < uses[j][0].(string)
			}
			return uses[i][1].(int) < uses[j][1].(int)
		})
		enc.Encode(defs[k])
	}
}
