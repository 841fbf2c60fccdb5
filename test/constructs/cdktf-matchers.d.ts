// cdktf's jest matchers (`Testing.setupJest()`: toHaveResourceWithProperties, ...) are declared in a module its
// index does not load; this brings their types into the tests' compilation.
import 'cdktf/lib/testing/adapters/jest';
