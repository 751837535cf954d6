; Kotlin definitions (the grammar has few fields: names are the first identifier child).
; The interface and enum patterns come first so that they win over the plain class pattern.
(class_declaration "interface" (type_identifier) @name) @definition.interface
(class_declaration (type_identifier) @name (enum_class_body)) @definition.enum
(class_declaration (type_identifier) @name) @definition.class
(object_declaration (type_identifier) @name) @definition.object
(function_declaration (simple_identifier) @name) @definition.function
(property_declaration (variable_declaration (simple_identifier) @name)) @definition.variable
(type_alias (type_identifier) @name) @definition.type
(enum_entry (simple_identifier) @name) @definition.constant
