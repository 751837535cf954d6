; TypeScript and TSX definitions.
(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
(function_signature name: (identifier) @name) @definition.function
(class_declaration name: (type_identifier) @name) @definition.class
(abstract_class_declaration name: (type_identifier) @name) @definition.class
(class name: (type_identifier) @name) @definition.class
(interface_declaration name: (type_identifier) @name) @definition.interface
(type_alias_declaration name: (type_identifier) @name) @definition.type
(enum_declaration name: (identifier) @name) @definition.enum
(internal_module name: [(identifier) (nested_identifier)] @name) @definition.module
(module name: [(identifier) (nested_identifier)] @name) @definition.module
(method_definition name: [(property_identifier) (private_property_identifier)] @name) @definition.method
(abstract_method_signature name: [(property_identifier) (private_property_identifier)] @name) @definition.method
(method_signature name: [(property_identifier) (private_property_identifier)] @name) @definition.method
(public_field_definition name: [(property_identifier) (private_property_identifier)] @name) @definition.field
(property_signature name: (property_identifier) @name) @definition.field
(variable_declarator
  name: (identifier) @name
  value: [(function_expression) (arrow_function) (generator_function)]) @definition.function
(variable_declarator
  name: (identifier) @name
  value: (class)) @definition.class
(variable_declarator name: (identifier) @name) @definition.variable
(assignment_expression
  left: (member_expression) @name
  right: [(function_expression) (arrow_function) (generator_function)]) @definition.function
(pair
  key: [(property_identifier) (string)] @name
  value: [(function_expression) (arrow_function) (generator_function)]) @definition.method
; res.contentType = res.type = function contentType () {}
(assignment_expression
  left: (member_expression) @name
  right: (assignment_expression right: [(function_expression) (arrow_function) (generator_function)])) @definition.function
; A named function expression passed along (return function generateETag () {}); one that only
; repeats the name it is assigned to is folded into that definition by the extractor.
(function_expression name: (identifier) @name) @definition.function
(generator_function name: (identifier) @name) @definition.function
; var proto = module.exports = function (options) {}
(variable_declarator
  name: (identifier) @name
  value: (assignment_expression right: [(function_expression) (arrow_function) (generator_function)])) @definition.function
