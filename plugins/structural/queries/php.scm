; PHP definitions. A namespace statement without a block prefixes the file.
(namespace_definition name: (namespace_name) @name body: (_)) @definition.module
(function_definition name: (name) @name) @definition.function
(class_declaration name: (name) @name) @definition.class
(interface_declaration name: (name) @name) @definition.interface
(trait_declaration name: (name) @name) @definition.trait
(enum_declaration name: (name) @name) @definition.enum
(method_declaration name: (name) @name) @definition.method
(property_declaration (property_element name: (variable_name (name) @name))) @definition.field
(property_promotion_parameter name: (variable_name (name) @name)) @definition.field
(const_declaration (const_element (name) @name)) @definition.constant
(enum_case name: (name) @name) @definition.constant
