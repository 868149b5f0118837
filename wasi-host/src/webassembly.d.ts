// SPDX-License-Identifier: MIT
// The slice of the WebAssembly JS API the host uses. @types/node 20 does not declare the
// `WebAssembly` global (it lives in lib.dom), and the host must not pull in DOM types.
// Internal: no public declaration of guest.ts mentions these types.
declare namespace WebAssembly {
  type ImportValue = (...args: any[]) => unknown;
  type Imports = Record<string, Record<string, ImportValue>>;
  interface ModuleExportDescriptor {
    name: string;
    kind: 'function' | 'table' | 'memory' | 'global' | 'tag';
  }
  interface ModuleImportDescriptor {
    module: string;
    name: string;
    kind: 'function' | 'table' | 'memory' | 'global' | 'tag';
  }
  class Module {
    constructor(bytes: Uint8Array);
    static exports(module: Module): ModuleExportDescriptor[];
    static imports(module: Module): ModuleImportDescriptor[];
  }
  class Memory {
    readonly buffer: ArrayBuffer;
  }
  class Instance {
    readonly exports: Record<string, unknown>;
  }
  class RuntimeError extends Error {}
  function compile(bytes: Uint8Array): Promise<Module>;
  function instantiate(module: Module, imports?: Imports): Promise<Instance>;
}
