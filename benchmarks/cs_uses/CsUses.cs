// CsUses: every use of every method, property, event, field and type (class, struct, interface, enum) defined in
// a C# library, as the C# compiler bound it: Mono's mcs compiles the library's sources at once with -debug (LIB.dll
// and its symbols LIB.dll.mdb), and this reads the compiled code with Mono.Cecil: each call, callvirt, newobj,
// ldftn and ldvirtftn names the method the compiler bound, each ldfld/ldflda/stfld/ldsfld/ldsflda/stsfld the field,
// and each instruction with a type operand (castclass, isinst, box, unbox, newarr, initobj, ldtoken, ...) the type;
// the symbols map the instruction's IL offset to its source file and line (the sequence point at or before it).
// Ground truth for the C# references and impact suites (benchmarks/cs_suites.sh), as JavaUses is for Java.
// - A use counts for the definition the compiler bound it to, in the library's own assembly only (what it calls
//   in the framework is left out): x.M() through an interface is the interface's M, and a call of a virtual method
//   is the method that introduced it (C# compilers name the base's virtual or abstract M, not an override of it).
// - A constructor call (new Foo(..)) counts as a use of its class, Foo; so do a type operand (typeof(Foo), x as
//   Foo, (Foo)x, new Foo[n]) and a static member's qualifier (Foo.Bar(), Foo.Count); get_X/set_X are uses of
//   the property X, add_X/remove_X and the backing field of a field-like event uses of the event X.
// - A use is kept only where the source text spells the name: at the sequence point's line, else the first line
//   after it, before the next sequence point, that does (a statement written on several lines); so base(..) and
//   this(..) calls, an unqualified static call's class and what the compiler synthesizes (foreach's
//   GetEnumerator, an implicit conversion) do not count. A use on its definition's own line (a field's
//   initializer, which the compiler moves into the constructors) is left out too.
// - Code the compiler generated (a lambda's <M>m__0, an iterator's or an async method's state machine, a closure's
//   class) is read for its uses, which lie at their source lines, and is no definition itself.
// - What the compiled code does not hold is not seen: a type named in a declaration (a field's, a parameter's, a
//   local's, a base list, an attribute, a generic argument), a const field or an enum member (the compiler copies
//   their values), nameof, code under an #if that is off. Delegate types, operators, finalizers, indexers and
//   explicit interface implementations are no definitions (their uses do not spell a name of theirs).
// The line of a definition is the line of its name, as Universal Ctags reports it (ctags is run over ROOT): among
// ctags' tags of that kind and name in the declaring type (ctags' scope, namespace.Outer.Inner), the one in the file
// of the method's first sequence point with the greatest line at or before it (overloads, a partial class's
// files); with no sequence point (abstract, interface and extern methods), the overload with as many parameters,
// in declaration order. A partial type is its first declaration (by path, then line). A definition ctags has no tag
// for (a generic type with a where clause, ctags 5.9 misses them) is left out, and counted; ctags' tag of a generic
// method with a where clause (which it names after the constraint) is renamed after the method.
// Usage: mono CsUses.exe ROOT LIB.dll
//          JSON lines: name, path, line, uses [[path, line], ...] (one per definition, by path, line, name; paths
//          relative to ROOT, where mcs was given the sources)
//        mono CsUses.exe -spans ROOT LIB.dll
//          JSON lines: name, path, line, end: ctags' methods, constructors, finalizers, operators and properties
//          (with its end lines) that are members of LIB's types by their scope and name, so that neither code
//          under an #if that is off nor what ctags misreads (a statement, a delegate) encloses a use: the
//          enclosing definitions of the impact and callee rows, a property's accessors too
//        mono CsUses.exe -implements ROOT LIB.dll
//          JSON lines: name, path, line, implementers: for every interface and abstract class of the library,
//          its classes and structs that implement or derive from it, directly or through another
// Summary on stderr: definitions, uses, definitions ctags did not place, uses left out for the spelling.
// Build: mcs -r:Mono.Cecil.dll -r:Mono.CompilerServices.SymbolWriter.dll -r:System.Core.dll CsUses.cs
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Text;
using System.Text.RegularExpressions;
using Mono.Cecil;
using Mono.Cecil.Cil;
using Mono.CompilerServices.SymbolWriter;

class CsUses {
    sealed class Tag {
        public string Name, Kind, Path, Scope, Signature;
        public int Line, End;
    }

    sealed class Def {
        public string Name, Path;
        public int Line;
        public readonly HashSet<string> Seen = new HashSet<string>();
        public readonly List<KeyValuePair<string, int>> Uses = new List<KeyValuePair<string, int>>();
    }

    static string root;
    static MonoSymbolFile mdb;
    static ModuleDefinition module;
    static readonly List<Tag> tags = new List<Tag>();
    static readonly Dictionary<string, List<Tag>> byScopeName = new Dictionary<string, List<Tag>>(); // kind|scope|name
    static readonly Dictionary<string, Def> defs = new Dictionary<string, Def>(); // path:line:name
    static readonly Dictionary<object, Def> defOf = new Dictionary<object, Def>(); // Cecil definition -> Def
    static readonly Dictionary<string, string[]> texts = new Dictionary<string, string[]>();
    static int unplaced = 0, unspelled = 0, kept = 0;

    static readonly string[] TypeKinds = { "class", "struct", "interface", "enum" };

    static void Main(string[] args) {
        string mode = args[0].StartsWith("-") ? args[0] : null;
        int a = mode == null ? 0 : 1;
        root = Path.GetFullPath(args[a]);
        string lib = args[a + 1];
        ReadTags();
        var o = new StreamWriter(Console.OpenStandardOutput(), new UTF8Encoding(false));
        module = ModuleDefinition.ReadModule(lib);
        mdb = MonoSymbolFile.ReadSymbolFile(lib + ".mdb");
        var types = module.GetTypes().Where(t => t.Name != "<Module>").ToList();
        if (mode == "-spans") {
            var members = new HashSet<string>(types.SelectMany(Members));
            foreach (Tag t in tags.Where(t => (t.Kind == "method" || t.Kind == "property")
                                              && members.Contains(t.Scope + "|" + Written(t.Name)))
                         .OrderBy(t => t.Path, StringComparer.Ordinal).ThenBy(t => t.Line))
                o.WriteLine("{\"name\": " + Json(t.Name) + ", \"path\": " + Json(t.Path) + ", \"line\": " + t.Line
                            + ", \"end\": " + Math.Max(t.End, t.Line) + "}");
            o.Flush();
            return;
        }
        foreach (TypeDefinition t in types) Declare(t);
        if (mode == "-implements") {
            Implementations(types, o);
            o.Flush();
            return;
        }
        int instructions = 0;
        foreach (TypeDefinition t in types)
            foreach (MethodDefinition m in t.Methods) {
                if (!m.HasBody) continue;
                MethodEntry entry = mdb.GetMethodByToken(m.MetadataToken.ToInt32());
                if (entry == null) continue;
                LineNumberEntry[] lines = entry.GetLineNumberTable().LineNumbers.OrderBy(l => l.Offset).ToArray();
                foreach (Instruction ins in m.Body.Instructions) {
                    instructions++;
                    foreach (Def d in Targets(ins)) Use(d, entry, lines, ins.Offset);
                }
            }
        foreach (Def d in defs.Values.OrderBy(d => d.Path, StringComparer.Ordinal).ThenBy(d => d.Line)
                     .ThenBy(d => d.Name, StringComparer.Ordinal)) {
            var uses = d.Uses.OrderBy(u => u.Key, StringComparer.Ordinal).ThenBy(u => u.Value)
                           .Select(u => "[" + Json(u.Key) + ", " + u.Value + "]");
            o.WriteLine("{\"name\": " + Json(d.Name) + ", \"path\": " + Json(d.Path) + ", \"line\": " + d.Line
                        + ", \"uses\": [" + string.Join(", ", uses) + "]}");
        }
        o.Flush();
        Console.Error.WriteLine("CsUses {0}: {1} types, {2} instructions, {3} definitions ({4} ctags did not place), "
                                + "{5} uses ({6} left out: the name is not written there)",
                                lib, types.Count, instructions, defs.Count, unplaced, kept, unspelled);
    }

    // ---- ctags' tags: where each definition's name is written
    static void ReadTags() {
        var psi = new ProcessStartInfo("ctags", "--output-format=u-ctags --excmd=number --sort=no --fields=+nKeSZ "
                                                + "--languages=C# -R -f - .") {
            WorkingDirectory = root, UseShellExecute = false, RedirectStandardOutput = true,
            StandardOutputEncoding = Encoding.UTF8
        };
        using (Process p = Process.Start(psi)) {
            string line;
            while ((line = p.StandardOutput.ReadLine()) != null) {
                if (line.StartsWith("!_")) continue;
                string[] f = line.Split('\t');
                if (f.Length < 4) continue;
                var t = new Tag { Name = f[0], Path = f[1].StartsWith("./") ? f[1].Substring(2) : f[1], Kind = f[3],
                                  Scope = "", Signature = null };
                foreach (string x in f.Skip(4)) {
                    int c = x.IndexOf(':');
                    if (c < 0) continue;
                    string k = x.Substring(0, c), v = x.Substring(c + 1);
                    if (k == "line") t.Line = int.Parse(v);
                    else if (k == "end") t.End = int.Parse(v);
                    else if (k == "signature") t.Signature = v;
                    else if (k == "scope") t.Scope = v.Substring(v.IndexOf(':') + 1);
                }
                // ctags (5.9) takes a generic method with a where clause for a property named after the constraint
                // (Foo<T>(..) where T : Bar is "Bar"): the name written before the type parameters is the method's
                if ((t.Kind == "method" || t.Kind == "property") && t.Path.EndsWith(".cs") && t.Line > 0) {
                    string[] text = Text(t.Path);
                    string decl = t.Line <= text.Length ? text[t.Line - 1] : "";
                    Match m = GenericMethod.Match(decl);
                    if (decl.Contains(" where ") && m.Success && m.Groups[1].Value != t.Name) {
                        t.Name = m.Groups[1].Value;
                        t.Kind = "method";
                    }
                }
                tags.Add(t);
                string key = t.Kind + "|" + t.Scope + "|" + t.Name;
                List<Tag> l;
                if (!byScopeName.TryGetValue(key, out l)) byScopeName[key] = l = new List<Tag>();
                l.Add(t);
            }
            p.WaitForExit();
        }
    }

    static readonly Regex GenericMethod = new Regex(@"\b([A-Za-z_][A-Za-z0-9_]*)\s*<[^<>()]*>\s*\(");

    static string Clean(string name) {
        int b = name.IndexOf('`');
        return b < 0 ? name : name.Substring(0, b);
    }

    /** ctags' scope of what type t declares: namespace.Outer.Inner */
    static string Scope(TypeDefinition t) {
        if (t.DeclaringType != null) return Scope(t.DeclaringType) + "." + Clean(t.Name);
        return (t.Namespace.Length > 0 ? t.Namespace + "." : "") + Clean(t.Name);
    }

    /** A name mcs made up: <M>m__0, <X>k__BackingField, <M>c__Iterator0, <PrivateImplementationDetails>, $ArrayType$8 */
    static bool Generated(string name) { return name.StartsWith("<") || name.Contains("$"); }

    static bool Generated(TypeDefinition t) {
        for (; t != null; t = t.DeclaringType)
            if (Generated(t.Name)) return true;
        return false;
    }

    static bool IsDelegate(TypeDefinition t) {
        return t.BaseType != null && (t.BaseType.FullName == "System.MulticastDelegate" || t.BaseType.FullName == "System.Delegate");
    }

    /** The first sequence point of m written in a file: (path relative to ROOT, line), or null. */
    static KeyValuePair<string, int>? FirstLine(MethodDefinition m) {
        if (m == null || !m.HasBody) return null;
        MethodEntry entry = mdb.GetMethodByToken(m.MetadataToken.ToInt32());
        if (entry == null) return null;
        foreach (LineNumberEntry l in entry.GetLineNumberTable().LineNumbers.OrderBy(l => l.Offset)) {
            if (l.IsHidden || l.Row <= 0 || l.Row >= 0xfeefee) continue;
            string path = FileOf(entry, l);
            if (path != null) return new KeyValuePair<string, int>(path, l.Row);
        }
        return null;
    }

    static readonly Dictionary<int, string> files = new Dictionary<int, string>();

    static string FileOf(MethodEntry entry, LineNumberEntry l) {
        int index = l.File > 0 ? l.File : entry.CompileUnit.SourceFile.Index;
        string path;
        if (files.TryGetValue(index, out path)) return path;
        string full = Path.GetFullPath(Path.Combine(root, mdb.GetSourceFile(index).FileName));
        path = full.StartsWith(root + "/") ? full.Substring(root.Length + 1) : null;
        return files[index] = path;
    }

    static int Parameters(string signature) {
        if (signature == null) return -1;
        string s = signature.Trim();
        if (s.StartsWith("(")) s = s.Substring(1);
        if (s.EndsWith(")")) s = s.Substring(0, s.Length - 1);
        if (s.Trim().Length == 0) return 0;
        int depth = 0, n = 1;
        foreach (char c in s) {
            if (c == '<' || c == '(' || c == '[' || c == '{') depth++;
            else if (c == '>' || c == ')' || c == ']' || c == '}') depth--;
            else if (c == ',' && depth == 0) n++;
        }
        return n;
    }

    /** The tag among candidates that declares a member: by its first line, else by its parameters and order. */
    static Tag Place(List<Tag> candidates, KeyValuePair<string, int>? first, int parameters, int overload) {
        if (candidates == null || candidates.Count == 0) return null;
        if (candidates.Count == 1) return candidates[0];
        if (first != null) {
            Tag best = null;
            foreach (Tag t in candidates)
                if (t.Path == first.Value.Key && t.Line <= first.Value.Value && (best == null || t.Line > best.Line)) best = t;
            if (best != null) return best;
        }
        var same = candidates.Where(t => Parameters(t.Signature) == parameters).ToList();
        if (same.Count == 0) return null;
        return same[Math.Min(overload, same.Count - 1)];
    }

    static Def Define(object member, Tag t) {
        if (t == null) {
            if (unplaced++ < 5) Console.Error.WriteLine("  not placed: " + member);
            return null;
        }
        string key = t.Path + ":" + t.Line + ":" + t.Name;
        Def d;
        if (!defs.TryGetValue(key, out d)) defs[key] = d = new Def { Name = t.Name, Path = t.Path, Line = t.Line };
        defOf[member] = d;
        return d;
    }

    static List<Tag> Candidates(string kind, string scope, string name) {
        List<Tag> l;
        return byScopeName.TryGetValue(kind + "|" + scope + "|" + name, out l) ? l : null;
    }

    /** The definitions type t declares: itself, its methods, properties, events and fields. */
    static void Declare(TypeDefinition t) {
        if (Generated(t) || IsDelegate(t)) return;
        string scope = Scope(t), name = Clean(t.Name);
        string outer = t.DeclaringType != null ? Scope(t.DeclaringType) : t.Namespace;
        var typeTags = TypeKinds.SelectMany(k => Candidates(k, outer, name) ?? new List<Tag>())
                           .OrderBy(x => x.Path, StringComparer.Ordinal).ThenBy(x => x.Line).ToList();
        Define(t, typeTags.FirstOrDefault());
        var overloads = new Dictionary<string, int>();
        foreach (MethodDefinition m in t.Methods) {
            if (Generated(m.Name) || m.IsConstructor || m.IsGetter || m.IsSetter || m.IsAddOn || m.IsRemoveOn
                || m.IsFire || m.IsOther || m.Name.Contains(".") || m.Name == "Finalize"
                || (m.IsSpecialName && m.Name.StartsWith("op_")))
                continue;
            string k = m.Name + "/" + m.Parameters.Count;
            int i;
            overloads.TryGetValue(k, out i);
            overloads[k] = i + 1;
            Define(m, Place(Candidates("method", scope, m.Name), FirstLine(m), m.Parameters.Count, i));
        }
        foreach (PropertyDefinition p in t.Properties) {
            if (p.HasParameters || p.Name.Contains(".") || Generated(p.Name)) continue; // indexers: no tag
            Define(p, Place(Candidates("property", scope, p.Name), FirstLine(p.GetMethod) ?? FirstLine(p.SetMethod), -1, 0));
        }
        foreach (EventDefinition e in t.Events) {
            if (e.Name.Contains(".") || Generated(e.Name)) continue;
            Def d = Define(e, Place(Candidates("event", scope, e.Name), FirstLine(e.AddMethod), -1, 0));
            FieldDefinition backing = t.Fields.FirstOrDefault(f => f.Name == e.Name);
            if (d != null && backing != null) defOf[backing] = d; // a field-like event's delegate: raising it
        }
        foreach (FieldDefinition f in t.Fields) {
            if (f.IsLiteral || f.IsSpecialName || Generated(f.Name) || defOf.ContainsKey(f)) continue;
            Define(f, Place(Candidates("field", scope, f.Name), null, -1, 0));
        }
    }

    /** A ctags name as the compiled code has it: an explicit implementation's (IFoo.Bar) is its member's name,
     *  an operator's "operator". */
    static string Written(string name) {
        if (name.StartsWith("operator")) return "operator";
        return name.Substring(name.LastIndexOf('.') + 1);
    }

    /** "scope|name" of every method, constructor, finalizer, operator and property of t, as Written names it. */
    static IEnumerable<string> Members(TypeDefinition t) {
        if (Generated(t) || IsDelegate(t)) yield break;
        string scope = Scope(t), name = Clean(t.Name);
        foreach (MethodDefinition m in t.Methods) {
            if (Generated(m.Name) || m.IsGetter || m.IsSetter || m.IsAddOn || m.IsRemoveOn) continue;
            if (m.IsConstructor) yield return scope + "|" + name;
            else if (m.Name == "Finalize") yield return scope + "|~" + name;
            else if (m.IsSpecialName && m.Name.StartsWith("op_")) yield return scope + "|operator";
            else yield return scope + "|" + Written(m.Name);
        }
        foreach (PropertyDefinition p in t.Properties) yield return scope + "|" + Written(p.Name);
    }

    // ---- uses
    static Def DefOf(object member) {
        Def d;
        return member != null && defOf.TryGetValue(member, out d) ? d : null;
    }

    static IEnumerable<Def> Targets(Instruction ins) {
        var result = new List<Def>();
        var mr = ins.Operand as MethodReference;
        var fr = ins.Operand as FieldReference;
        var tr = ins.Operand as TypeReference;
        OpCode op = ins.OpCode;
        if (mr != null && (op == OpCodes.Call || op == OpCodes.Callvirt || op == OpCodes.Newobj || op == OpCodes.Ldftn
                           || op == OpCodes.Ldvirtftn)) {
            MethodDefinition m = Resolve(mr);
            if (m == null) return result;
            if (m.IsConstructor) {
                if (!m.IsStatic) result.Add(DefOf(m.DeclaringType));
            } else if (m.IsGetter || m.IsSetter) {
                result.Add(DefOf(m.DeclaringType.Properties.FirstOrDefault(p => p.GetMethod == m || p.SetMethod == m)));
            } else if (m.IsAddOn || m.IsRemoveOn) {
                result.Add(DefOf(m.DeclaringType.Events.FirstOrDefault(e => e.AddMethod == m || e.RemoveMethod == m)));
            } else {
                result.Add(DefOf(m));
            }
            if (m.IsStatic && !m.IsConstructor && !Generated(m.Name)) result.Add(DefOf(m.DeclaringType));
        } else if (fr != null && op != OpCodes.Ldtoken) {
            FieldDefinition f = Resolve(fr);
            if (f == null) return result;
            result.Add(DefOf(f));
            if (f.IsStatic && !Generated(f.Name)) result.Add(DefOf(f.DeclaringType)); // not a lambda's cache
        } else if (tr != null && op != OpCodes.Constrained) {
            TypeDefinition t = Resolve(tr);
            if (t != null) result.Add(DefOf(t));
        }
        return result.Where(d => d != null).Distinct();
    }

    // What resolve() finds, when it is the library's own definition; null for another assembly's or one not found.
    static T Own<T>(Func<T> resolve) where T : MemberReference {
        try {
            T found = resolve();
            return found != null && found.Module == module ? found : null;
        } catch (AssemblyResolutionException) {
            return null;
        }
    }

    static MethodDefinition Resolve(MethodReference r) { return Own(() => r.Resolve()); }

    static FieldDefinition Resolve(FieldReference r) { return Own(() => r.Resolve()); }

    static TypeDefinition Resolve(TypeReference r) {
        while (r is TypeSpecification && !(r is GenericInstanceType)) r = ((TypeSpecification) r).ElementType;
        return Own(() => r.Resolve());
    }

    static string[] Text(string path) {
        string[] lines;
        if (!texts.TryGetValue(path, out lines))
            texts[path] = lines = File.ReadAllLines(Path.Combine(root, path));
        return lines;
    }

    static bool Spells(string line, string name) {
        for (int i = line.IndexOf(name, StringComparison.Ordinal); i >= 0;
             i = line.IndexOf(name, i + 1, StringComparison.Ordinal)) {
            bool before = i > 0 && (char.IsLetterOrDigit(line[i - 1]) || line[i - 1] == '_');
            int e = i + name.Length;
            bool after = e < line.Length && (char.IsLetterOrDigit(line[e]) || line[e] == '_');
            if (!before && !after) return true;
        }
        return false;
    }

    /** Records a use of d by the instruction at offset: at the line of its sequence point that spells d's name. */
    static void Use(Def d, MethodEntry entry, LineNumberEntry[] lines, int offset) {
        int at = -1;
        for (int i = 0; i < lines.Length && lines[i].Offset <= offset; i++) at = i;
        if (at < 0) return;
        LineNumberEntry l = lines[at];
        if (l.IsHidden || l.Row <= 0 || l.Row >= 0xfeefee) return;
        string path = FileOf(entry, l);
        if (path == null) return;
        string[] text = Text(path);
        int last = Math.Max(l.Row, l.EndRow);
        int next = int.MaxValue; // the next sequence point's line in the same file: the statement ends before it
        foreach (LineNumberEntry x in lines)
            if (x.Row > l.Row && x.Row < next && !x.IsHidden && x.Row < 0xfeefee && FileOf(entry, x) == path) next = x.Row;
        if (next != int.MaxValue) last = Math.Max(last, next - 1);
        last = Math.Min(Math.Min(last, l.Row + 15), text.Length);
        for (int row = l.Row; row <= last; row++) {
            if (!Spells(text[row - 1], d.Name)) continue;
            if (path == d.Path && row == d.Line) return; // the declaration itself: a field's initializer
            kept++;
            if (d.Seen.Add(path + ":" + row)) d.Uses.Add(new KeyValuePair<string, int>(path, row));
            return;
        }
        unspelled++;
    }

    // ---- implementations
    static void Implementations(List<TypeDefinition> types, StreamWriter o) {
        var found = new Dictionary<Def, HashSet<Def>>();
        foreach (TypeDefinition c in types) {
            Def cd = DefOf(c);
            if (cd == null || c.IsInterface) continue;
            var seen = new HashSet<TypeDefinition>();
            var work = new Stack<TypeDefinition>();
            work.Push(c);
            while (work.Count > 0) {
                TypeDefinition t = work.Pop();
                if (!seen.Add(t)) continue;
                if (t != c && (t.IsInterface || t.IsAbstract)) {
                    Def d = DefOf(t);
                    if (d != null) {
                        HashSet<Def> s;
                        if (!found.TryGetValue(d, out s)) found[d] = s = new HashSet<Def>();
                        s.Add(cd);
                    }
                }
                if (t.BaseType != null) {
                    TypeDefinition b = Resolve(t.BaseType);
                    if (b != null) work.Push(b);
                }
                foreach (InterfaceImplementation i in t.Interfaces) {
                    TypeDefinition it = Resolve(i.InterfaceType);
                    if (it != null) work.Push(it);
                }
            }
        }
        foreach (TypeDefinition t in types.Where(x => DefOf(x) != null).OrderBy(x => DefOf(x).Path, StringComparer.Ordinal)
                     .ThenBy(x => DefOf(x).Line)) {
            Def d = DefOf(t);
            if (!(t.IsInterface || (t.IsAbstract && !t.IsSealed))) continue; // static classes: abstract sealed
            HashSet<Def> s;
            if (!found.TryGetValue(d, out s)) s = new HashSet<Def>();
            var pairs = s.OrderBy(x => x.Path, StringComparer.Ordinal).ThenBy(x => x.Line)
                            .Select(x => "[" + Json(x.Path) + ", " + x.Line + "]");
            o.WriteLine("{\"name\": " + Json(d.Name) + ", \"path\": " + Json(d.Path) + ", \"line\": " + d.Line
                        + ", \"implementers\": [" + string.Join(", ", pairs) + "]}");
        }
    }

    static string Json(string s) {
        var b = new StringBuilder("\"");
        foreach (char c in s) {
            if (c == '"' || c == '\\') b.Append('\\').Append(c);
            else if (c < 0x20) b.AppendFormat("\\u{0:x4}", (int) c);
            else b.Append(c);
        }
        return b.Append('"').ToString();
    }
}
