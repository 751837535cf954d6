// JavaUses: every use of every method and type (class, interface, enum, record, annotation) defined under
// ROOT, as the Java compiler resolves it (javac's JavacTask over all the .java files under ROOT at once;
// what they import from outside ROOT and the JDK is missing and stays unresolved). Ground truth for the
// Java references and impact suites (benchmarks/java_suites.sh), as go_uses is for Go and jedi for Python.
// A constructor call (new Foo(..), Foo::new) counts as a use of its class; a call x.m() counts for the
// method javac binds it to (an interface's or superclass's method when x has that static type); imports,
// package clauses and a declaration's own name are not uses; neither are this(..)/super(..) calls nor
// anything javac synthesizes (a use is kept only where the source text at its position spells the name).
// Usage: java --add-exports jdk.compiler/com.sun.tools.javac.tree=ALL-UNNAMED JavaUses.java [-cp JARS] ROOT
//          JSON lines: name, path, line, uses [[path, line], ...] (one per definition, by path, line, name);
//          -cp: the dependencies' jars, javac's -classpath (default none)
//        java --add-exports ... JavaUses.java [-cp JARS] -implements ROOT
//          JSON lines: name, path, line, implementers: for every interface and abstract class under ROOT, the
//          named classes, enums and records under ROOT that are subtypes of it (javac's Types.isSubtype on
//          erasures, so directly or transitively)
// Summary on stderr: files, javac errors (mostly missing dependencies) and unresolved names.
import com.sun.source.tree.*;
import com.sun.source.util.*;
import com.sun.tools.javac.tree.JCTree;
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;
import java.util.stream.*;
import javax.lang.model.element.*;
import javax.lang.model.type.*;
import javax.lang.model.util.*;
import javax.tools.*;

public class JavaUses {
    static Path root;
    static Trees trees;
    static final Map<String, Def> defs = new HashMap<>(); // "path:line:name" -> definition
    static final Map<CompilationUnitTree, String> texts = new HashMap<>();
    static int unresolved = 0;

    static final class Def {
        final String name, path;
        final int line;
        final TreeSet<String> seen = new TreeSet<>();
        final List<Object[]> uses = new ArrayList<>();
        Def(String name, String path, int line) { this.name = name; this.path = path; this.line = line; }
    }

    static final Set<ElementKind> TYPES = EnumSet.of(ElementKind.CLASS, ElementKind.INTERFACE, ElementKind.ENUM,
            ElementKind.RECORD, ElementKind.ANNOTATION_TYPE);

    static String rel(CompilationUnitTree cu) {
        Path p = Paths.get(cu.getSourceFile().toUri()).toAbsolutePath().normalize();
        return p.startsWith(root) ? root.relativize(p).toString().replace(File.separatorChar, '/') : null;
    }

    static int line(CompilationUnitTree cu, long pos) { return (int) cu.getLineMap().getLineNumber(pos); }

    /** The definition e stands for (a constructor stands for its class), or null when it is not declared under ROOT. */
    static Def definition(Element e) {
        if (e == null) return null;
        if (e.getKind() == ElementKind.CONSTRUCTOR) e = e.getEnclosingElement();
        if (!(e.getKind() == ElementKind.METHOD || TYPES.contains(e.getKind()))) return null;
        String name = e.getSimpleName().toString();
        if (name.isEmpty()) return null; // anonymous classes
        TreePath decl = trees.getPath(e);
        if (decl == null) return null; // from the JDK or a class file, or implicit (an enum's values())
        Tree t = decl.getLeaf();
        if (!(t instanceof ClassTree || t instanceof MethodTree)) return null;
        CompilationUnitTree cu = decl.getCompilationUnit();
        String path = rel(cu);
        if (path == null) return null;
        int ln = line(cu, ((JCTree) t).pos); // a declaration's pos is its name's
        return defs.computeIfAbsent(path + ":" + ln + ":" + name, k -> new Def(name, path, ln));
    }

    /** Records a use of e at pos when it is defined under ROOT and the text at pos spells its name. */
    static void use(CompilationUnitTree cu, Element e, long pos, String spelled) {
        Def d = definition(e);
        if (d == null || pos < 0) return;
        String text = texts.get(cu);
        if (!spelled.equals(d.name) || !text.startsWith(spelled, (int) pos)) return;
        String path = rel(cu);
        if (path == null) return;
        int ln = line(cu, pos);
        if (d.seen.add(path + ":" + ln)) d.uses.add(new Object[] {path, ln});
    }

    /** A name javac could not bind (its declaration is in a missing dependency). */
    static boolean unresolved(Element e) {
        return e == null || e.asType() != null && e.asType().getKind() == TypeKind.ERROR;
    }

    static final class Scanner extends TreePathScanner<Void, Void> {
        final CompilationUnitTree cu;
        final SourcePositions sp;
        Scanner(CompilationUnitTree cu, SourcePositions sp) { this.cu = cu; this.sp = sp; }

        @Override public Void visitImport(ImportTree t, Void v) { return null; }
        @Override public Void visitPackage(PackageTree t, Void v) { return null; }

        @Override public Void visitIdentifier(IdentifierTree t, Void v) {
            String n = t.getName().toString();
            if (!n.equals("this") && !n.equals("super")) {
                Element e = trees.getElement(getCurrentPath());
                if (unresolved(e)) unresolved++;
                else use(cu, e, sp.getStartPosition(cu, t), n);
            }
            return super.visitIdentifier(t, v);
        }

        @Override public Void visitMemberSelect(MemberSelectTree t, Void v) {
            String n = t.getIdentifier().toString();
            if (!n.equals("this") && !n.equals("super") && !n.equals("class")) {
                Element e = trees.getElement(getCurrentPath());
                long end = sp.getEndPosition(cu, t);
                if (unresolved(e)) unresolved++;
                else if (end >= 0) use(cu, e, end - n.length(), n);
            }
            return super.visitMemberSelect(t, v);
        }

        @Override public Void visitMemberReference(MemberReferenceTree t, Void v) {
            String n = t.getName().toString(); // Foo::new: the qualifier Foo is the class's use already
            if (t.getMode() == MemberReferenceTree.ReferenceMode.INVOKE) {
                Element e = trees.getElement(getCurrentPath());
                long end = sp.getEndPosition(cu, t);
                if (unresolved(e)) unresolved++;
                else if (end >= 0) use(cu, e, end - n.length(), n);
            }
            return super.visitMemberReference(t, v);
        }
    }

    /** Every method and named type declared in cu, used or not (so that overloads are counted). */
    static final class Declarations extends TreePathScanner<Void, Void> {
        @Override public Void visitClass(ClassTree t, Void v) {
            definition(trees.getElement(getCurrentPath()));
            return super.visitClass(t, v);
        }
        @Override public Void visitMethod(MethodTree t, Void v) {
            Element e = trees.getElement(getCurrentPath());
            if (e != null && e.getKind() == ElementKind.METHOD) definition(e);
            return super.visitMethod(t, v);
        }
    }

    static String json(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') b.append('\\').append(c);
            else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
            else b.append(c);
        }
        return b.append('"').toString();
    }

    static String pairs(List<Object[]> l) {
        return l.stream().map(u -> "[" + json((String) u[0]) + ", " + u[1] + "]").collect(Collectors.joining(", ", "[", "]"));
    }

    static final Comparator<Def> BY_DEF = Comparator.comparing((Def d) -> d.path).thenComparingInt(d -> d.line)
            .thenComparing(d -> d.name);
    static final Comparator<Object[]> BY_PATH_LINE =
            Comparator.comparing((Object[] u) -> (String) u[0]).thenComparingInt(u -> (Integer) u[1]);

    public static void main(String[] args) throws IOException {
        String classpath = "";
        boolean implementsMode = false;
        int a = 0;
        for (; a < args.length - 1; a++) {
            if (args[a].equals("-cp")) classpath = args[++a];
            else if (args[a].equals("-implements")) implementsMode = true;
            else break;
        }
        root = Paths.get(args[a]).toAbsolutePath().normalize();
        List<File> files;
        try (Stream<Path> s = Files.walk(root)) {
            files = s.filter(p -> p.toString().endsWith(".java") && !p.getFileName().toString().equals("module-info.java"))
                     .filter(p -> root.relativize(p).toString().chars().noneMatch(c -> c == '\0'))
                     .filter(p -> StreamSupport.stream(root.relativize(p).spliterator(), false)
                                     .noneMatch(q -> q.toString().startsWith(".")))
                     .sorted().map(Path::toFile).collect(Collectors.toList());
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diags = new DiagnosticCollector<>();
        StandardJavaFileManager fm = javac.getStandardFileManager(diags, null, StandardCharsets.UTF_8);
        // should-stop.ifError=FLOW: attribute every class even after errors (missing dependencies)
        List<String> opts = List.of("-proc:none", "-Xlint:none", "-nowarn", "-encoding", "UTF-8", "-implicit:none",
                "-XDshould-stop.ifError=FLOW", "-Xmaxerrs", "100000", "-classpath", classpath);
        JavacTask task = (JavacTask) javac.getTask(null, fm, diags, opts, null, fm.getJavaFileObjectsFromFiles(files));
        trees = Trees.instance(task);
        List<CompilationUnitTree> units = new ArrayList<>();
        task.parse().forEach(units::add);
        task.analyze();
        for (CompilationUnitTree cu : units) texts.put(cu, cu.getSourceFile().getCharContent(true).toString());
        long errors = diags.getDiagnostics().stream().filter(d -> d.getKind() == Diagnostic.Kind.ERROR).count();
        long missing = diags.getDiagnostics().stream()
                .filter(d -> d.getKind() == Diagnostic.Kind.ERROR && d.getCode().contains("cant.resolve")).count();
        PrintStream out = new PrintStream(new BufferedOutputStream(System.out), false, StandardCharsets.UTF_8);
        if (implementsMode) {
            implementations(task, units, out);
        } else {
            for (CompilationUnitTree cu : units) new Declarations().scan(cu, null);
            SourcePositions sp = trees.getSourcePositions();
            for (CompilationUnitTree cu : units) new Scanner(cu, sp).scan(cu, null);
            List<Def> sorted = new ArrayList<>(defs.values());
            sorted.sort(BY_DEF);
            for (Def d : sorted) {
                d.uses.sort(BY_PATH_LINE);
                out.println("{\"name\": " + json(d.name) + ", \"path\": " + json(d.path) + ", \"line\": " + d.line
                        + ", \"uses\": " + pairs(d.uses) + "}");
            }
        }
        out.flush();
        System.err.printf("JavaUses %s: %d files, %d javac errors (%d cannot-resolve), %d unresolved names, %d definitions%n",
                root, files.size(), errors, missing, unresolved, defs.size());
        diags.getDiagnostics().stream().filter(d -> d.getKind() == Diagnostic.Kind.ERROR).limit(5)
                .forEach(d -> System.err.println("  " + d.toString().replace('\n', ' ')));
    }

    static void implementations(JavacTask task, List<CompilationUnitTree> units, PrintStream out) {
        Types types = task.getTypes();
        List<TypeElement> all = new ArrayList<>();
        for (CompilationUnitTree cu : units) {
            new TreePathScanner<Void, Void>() {
                @Override public Void visitClass(ClassTree t, Void v) {
                    Element e = trees.getElement(getCurrentPath());
                    if (e instanceof TypeElement && definition(e) != null) all.add((TypeElement) e);
                    return super.visitClass(t, v);
                }
            }.scan(cu, null);
        }
        Map<Def, String> lines = new TreeMap<>(BY_DEF);
        for (TypeElement i : all) {
            boolean iface = i.getKind() == ElementKind.INTERFACE;
            boolean abstractClass = i.getKind() == ElementKind.CLASS && i.getModifiers().contains(Modifier.ABSTRACT);
            if (!iface && !abstractClass) continue;
            Def d = definition(i);
            TypeMirror it = types.erasure(i.asType());
            List<Object[]> found = new ArrayList<>();
            for (TypeElement c : all) {
                ElementKind k = c.getKind();
                if (c == i || !(k == ElementKind.CLASS || k == ElementKind.ENUM || k == ElementKind.RECORD)) continue;
                if (types.isSubtype(types.erasure(c.asType()), it)) {
                    Def cd = definition(c);
                    found.add(new Object[] {cd.path, cd.line});
                }
            }
            found.sort(BY_PATH_LINE);
            lines.put(d, "{\"name\": " + json(d.name) + ", \"path\": " + json(d.path) + ", \"line\": "
                    + d.line + ", \"implementers\": " + pairs(found) + "}");
        }
        lines.values().forEach(out::println);
    }
}
