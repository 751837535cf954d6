; JavaScript definitions (also the base of typescript.scm).
(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
(class_declaration name: (identifier) @name) @definition.class
(class name: (identifier) @name) @definition.class
(method_definition name: [(property_identifier) (private_property_identifier)] @name) @definition.method
(field_definition property: [(property_identifier) (private_property_identifier)] @name) @definition.field
; const f = function () {}, const f = () => {}
(variable_declarator
  name: (identifier) @name
  value: [(function_expression) (arrow_function) (generator_function)]) @definition.function
(variable_declarator
  name: (identifier) @name
  value: (class)) @definition.class
(variable_declarator name: (identifier) @name) @definition.variable
; exports.send = function send () {}, Route.prototype.get = function () {}
(assignment_expression
  left: (member_expression) @name
  right: [(function_expression) (arrow_function) (generator_function)]) @definition.function
; { send() {}, send: function () {} } in an object literal
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
