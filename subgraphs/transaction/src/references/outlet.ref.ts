import { Directive, Field, ID, ObjectType } from 'type-graphql';

/** Outlet as this subgraph sees it: a reference only; the outlet subgraph owns and resolves it (with the caller's scope). */
@Directive('@key(fields: "id", resolvable: false)')
@ObjectType('Outlet')
export class OutletRef {
  @Field(() => ID, { description: 'Outlet id (UUID).' })
  id!: string;
}
