/**
 * A box's tool by name, looked up on every call: each descriptor list a box
 * hands out is indexed once (boxes hand out the same list while their tools
 * stand), so a call does not scan every tool mounted.
 */
import type { ToolBox, ToolDescriptor } from "@indus/contract";

const descriptorIndex = new WeakMap<readonly ToolDescriptor[], Map<string, ToolDescriptor>>();

/** Looks a tool up by name, indexing each descriptor list the box hands out once. */
export function findDescriptor(box: ToolBox, name: string): ToolDescriptor | undefined {
  const descriptors = box.descriptors();
  let index = descriptorIndex.get(descriptors);
  if (index === undefined) {
    index = new Map(descriptors.map((descriptor) => [descriptor.name, descriptor]));
    descriptorIndex.set(descriptors, index);
  }
  return index.get(name);
}
