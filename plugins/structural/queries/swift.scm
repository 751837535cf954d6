; Swift definitions: class_declaration covers class, struct, enum, actor and extension by keyword.
(class_declaration "struct" name: (type_identifier) @name) @definition.struct
(class_declaration "enum" name: (type_identifier) @name) @definition.enum
(class_declaration "extension" name: (_) @name) @definition.extension
(class_declaration name: (type_identifier) @name) @definition.class
(protocol_declaration name: (type_identifier) @name) @definition.interface
(function_declaration name: (simple_identifier) @name) @definition.function
(protocol_function_declaration name: (simple_identifier) @name) @definition.method
(init_declaration "init" @name) @definition.method
(property_declaration name: (pattern bound_identifier: (simple_identifier) @name)) @definition.variable
(protocol_property_declaration name: (pattern bound_identifier: (simple_identifier) @name)) @definition.property
(typealias_declaration name: (type_identifier) @name) @definition.type
(enum_entry name: (simple_identifier) @name) @definition.constant
