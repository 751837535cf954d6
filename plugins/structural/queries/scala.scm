; Scala definitions. The package clause prefixes qualified names.
(class_definition name: (identifier) @name) @definition.class
(object_definition name: (identifier) @name) @definition.object
(trait_definition name: (identifier) @name) @definition.trait
(enum_definition name: (identifier) @name) @definition.enum
(function_definition name: (identifier) @name) @definition.function
(function_declaration name: (identifier) @name) @definition.function
(type_definition name: (type_identifier) @name) @definition.type
(val_definition pattern: (identifier) @name) @definition.variable
(var_definition pattern: (identifier) @name) @definition.variable
(val_declaration name: (identifier) @name) @definition.variable
(given_definition name: (identifier) @name) @definition.variable
(simple_enum_case name: (identifier) @name) @definition.constant
(full_enum_case name: (identifier) @name) @definition.constant
