; C++ definitions: the C patterns plus classes, namespaces, aliases, templates and methods.
; Prototypes are declarations, not definitions, and are left out (as ctags does by default).
(function_definition declarator: (function_declarator declarator: (_) @name)) @definition.function
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: (_) @name))) @definition.function
(function_definition declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (_) @name)))) @definition.function
(struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
(union_specifier name: (type_identifier) @name body: (_)) @definition.union
(enum_specifier name: (type_identifier) @name body: (_)) @definition.enum
(type_definition declarator: (type_identifier) @name) @definition.type
(type_definition declarator: (pointer_declarator declarator: (type_identifier) @name)) @definition.type
(type_definition declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name)))) @definition.type
(enumerator name: (identifier) @name) @definition.constant
(preproc_def name: (identifier) @name) @definition.macro
(preproc_function_def name: (identifier) @name) @definition.macro
(field_declaration declarator: (field_identifier) @name) @definition.field
(field_declaration declarator: (pointer_declarator declarator: (field_identifier) @name)) @definition.field
(field_declaration declarator: (array_declarator declarator: (field_identifier) @name)) @definition.field
; A pointer to a function: ``int (*cb)(int);``, ``const char* (*name_)(void*);``, ``void (**table)(void);``.
(field_declaration declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (field_identifier) @name)))) @definition.field
(field_declaration declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (pointer_declarator declarator: (field_identifier) @name))))) @definition.field
(field_declaration declarator: (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (field_identifier) @name))))) @definition.field
; Globals: declarations outside functions (locals are dropped by the extractor).
(declaration declarator: (init_declarator declarator: (identifier) @name)) @definition.variable
(declaration declarator: (init_declarator declarator: (pointer_declarator declarator: (identifier) @name))) @definition.variable
(declaration declarator: (init_declarator declarator: (array_declarator declarator: (identifier) @name))) @definition.variable
(declaration declarator: (identifier) @name) @definition.variable
(declaration declarator: (pointer_declarator declarator: (identifier) @name)) @definition.variable
(declaration declarator: (array_declarator declarator: (identifier) @name)) @definition.variable
(declaration declarator: (init_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name))))) @definition.variable
(declaration declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name)))) @definition.variable
(function_definition declarator: (reference_declarator (function_declarator declarator: (_) @name))) @definition.function
(class_specifier name: (type_identifier) @name body: (_)) @definition.class
(struct_specifier name: (template_type name: (type_identifier) @name) body: (_)) @definition.struct
(class_specifier name: (template_type name: (type_identifier) @name) body: (_)) @definition.class
(namespace_definition name: (_) @name) @definition.module
(alias_declaration name: (type_identifier) @name) @definition.type
(concept_definition name: (identifier) @name) @definition.type
; Method declarations inside a class body.
(field_declaration declarator: (function_declarator declarator: (_) @name)) @definition.method
(field_declaration_list (declaration declarator: (function_declarator declarator: (_) @name)) @definition.method)
(field_declaration_list (template_declaration (declaration declarator: (function_declarator declarator: (_) @name)) @definition.method))
; ... and those returning a pointer or a reference (``virtual Iterator* NewIterator(..) = 0;``).
(field_declaration declarator: (pointer_declarator declarator: (function_declarator declarator: (_) @name))) @definition.method
(field_declaration declarator: (reference_declarator (function_declarator declarator: (_) @name))) @definition.method
(field_declaration_list (declaration declarator: (pointer_declarator declarator: (function_declarator declarator: (_) @name))) @definition.method)
(field_declaration_list (declaration declarator: (reference_declarator (function_declarator declarator: (_) @name))) @definition.method)
; A nested class defined outside its enclosing class (``class Regexp::ParseState {``).
(class_specifier name: (qualified_identifier) @name body: (_)) @definition.class
(struct_specifier name: (qualified_identifier) @name body: (_)) @definition.struct
