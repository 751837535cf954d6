; Python definitions. Decorators are folded into the range by the extractor.
(class_definition name: (identifier) @name) @definition.class
(function_definition name: (identifier) @name) @definition.function
(type_alias_statement left: (type (identifier) @name)) @definition.type
; Assignments: module-level ones are variables, class-level ones fields, locals are dropped.
(assignment left: (identifier) @name) @definition.variable
(assignment left: (pattern_list (identifier) @name)) @definition.variable
(assignment left: (tuple_pattern (identifier) @name)) @definition.variable
