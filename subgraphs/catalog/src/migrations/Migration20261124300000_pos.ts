import { Migration } from '@mikro-orm/migrations';

/**
 * Point of sale (core-api.md §2, §4): products with one default variant each, stock per outlet and variant,
 * stock movements, customers, sales orders with items and payments, per-outlet receipt counters and the sync
 * outbox receipts that make pushes idempotent.
 *
 * Sync versions (docs/decisions/0055-pos-sync.md): every synced row carries `sync_version`, set by trigger on
 * each insert and update to (top-level xid << 20) + the row's ordinal within its transaction. Versions therefore
 * sort by writing transaction first; a pull reads only versions below (pg_snapshot_xmin << 20), i.e. rows of
 * transactions that have all finished, and no transaction can commit a version below that bound later.
 */
export class Migration20261124300000_pos extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create function catalog.assign_sync_version() returns trigger language plpgsql as $$
      declare
        n bigint := coalesce(nullif(current_setting('catalog.sync_ordinal', true), '')::bigint, 0) + 1;
      begin
        -- 2^20 rows per transaction keep versions of different transactions apart
        if n >= 1048576 then raise exception 'more than 1048575 synced rows written in one transaction'; end if;
        perform set_config('catalog.sync_ordinal', n::text, true);
        new.sync_version := (pg_current_xact_id()::text::bigint << 20) + n;
        return new;
      end $$;

      alter table catalog.categories add column sync_version bigint;
      create trigger categories_sync_version before insert or update on catalog.categories
        for each row execute function catalog.assign_sync_version();
      update catalog.categories set updated_at = updated_at;
      alter table catalog.categories alter column sync_version set not null;
      create index categories_sync_idx on catalog.categories (merchant_id, sync_version);
      -- a parent must be a category of the same merchant
      alter table catalog.categories add constraint categories_id_merchant_key unique (id, merchant_id);

      create table catalog.products (
        id uuid primary key,
        merchant_id uuid not null,
        category_id uuid,
        name text not null,
        sku text not null,
        product_type text not null default 'good' constraint products_type_check check (product_type in ('good', 'service')),
        sell_price_amount bigint not null default 0 constraint products_sell_price_check check (sell_price_amount >= 0),
        cost_price_amount bigint not null default 0 constraint products_cost_price_check check (cost_price_amount >= 0),
        unit_label text,
        description text,
        image_url text,
        tax_rate_bps integer not null default 0 constraint products_tax_rate_check check (tax_rate_bps between 0 and 10000),
        track_stock boolean not null default false,
        is_active boolean not null default true,
        sort_order integer not null default 0,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        deleted_at timestamptz,
        sync_version bigint not null,
        constraint products_id_merchant_key unique (id, merchant_id),
        constraint products_category_fkey foreign key (category_id, merchant_id) references catalog.categories (id, merchant_id)
      );
      create unique index products_sku_key on catalog.products (merchant_id, sku) where deleted_at is null;
      create index products_list_idx on catalog.products (merchant_id, sort_order, name) where deleted_at is null;
      create index products_sync_idx on catalog.products (merchant_id, sync_version);
      create trigger products_sync_version before insert or update on catalog.products
        for each row execute function catalog.assign_sync_version();

      create table catalog.variants (
        id uuid primary key,
        merchant_id uuid not null,
        product_id uuid not null,
        name text not null,
        sku text not null,
        barcode text,
        is_default boolean not null default false,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        deleted_at timestamptz,
        sync_version bigint not null,
        constraint variants_id_merchant_key unique (id, merchant_id),
        constraint variants_product_fkey foreign key (product_id, merchant_id) references catalog.products (id, merchant_id)
      );
      -- barcodes are unique over every merchant's live variants (core-api.md §4: barcode_conflict)
      create unique index variants_barcode_key on catalog.variants (barcode) where deleted_at is null and barcode is not null;
      create unique index variants_one_default_key on catalog.variants (product_id) where is_default and deleted_at is null;
      create index variants_sync_idx on catalog.variants (merchant_id, sync_version);
      create trigger variants_sync_version before insert or update on catalog.variants
        for each row execute function catalog.assign_sync_version();

      create table catalog.product_stock (
        id uuid primary key,
        merchant_id uuid not null,
        outlet_id uuid not null,
        variant_id uuid not null,
        quantity bigint not null default 0,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        sync_version bigint not null,
        constraint product_stock_variant_fkey foreign key (variant_id, merchant_id) references catalog.variants (id, merchant_id),
        constraint product_stock_key unique (merchant_id, outlet_id, variant_id)
      );
      create index product_stock_sync_idx on catalog.product_stock (merchant_id, sync_version);
      create trigger product_stock_sync_version before insert or update on catalog.product_stock
        for each row execute function catalog.assign_sync_version();

      create table catalog.stock_movements (
        id uuid primary key,
        merchant_id uuid not null,
        outlet_id uuid not null,
        variant_id uuid not null,
        quantity_delta bigint not null constraint stock_movements_delta_check check (quantity_delta <> 0),
        reason text not null constraint stock_movements_reason_check check (reason in ('sale', 'void', 'adjustment', 'restock', 'waste')),
        sales_order_id uuid,
        note text,
        occurred_at timestamptz not null,
        created_at timestamptz not null,
        constraint stock_movements_variant_fkey foreign key (variant_id, merchant_id) references catalog.variants (id, merchant_id)
      );
      create index stock_movements_variant_idx on catalog.stock_movements (merchant_id, outlet_id, variant_id, occurred_at);

      create table catalog.customers (
        id uuid primary key,
        merchant_id uuid not null,
        name text not null,
        phone text,
        email text,
        note text,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        deleted_at timestamptz,
        sync_version bigint not null,
        constraint customers_id_merchant_key unique (id, merchant_id)
      );
      create index customers_sync_idx on catalog.customers (merchant_id, sync_version);
      create trigger customers_sync_version before insert or update on catalog.customers
        for each row execute function catalog.assign_sync_version();

      -- per (merchant, outlet) receipt numbering: one row, incremented atomically by upsert
      create table catalog.receipt_counters (
        merchant_id uuid not null,
        outlet_id uuid not null,
        last_number bigint not null,
        primary key (merchant_id, outlet_id)
      );

      create table catalog.sales_orders (
        id uuid primary key,
        merchant_id uuid not null,
        outlet_id uuid not null,
        customer_id uuid,
        receipt_number text not null,
        status text not null constraint sales_orders_status_check check (status in ('open', 'completed', 'voided', 'refunded')),
        source text not null,
        transacted_at timestamptz not null,
        subtotal_amount bigint not null,
        discount_amount bigint not null default 0,
        tax_amount bigint not null default 0,
        total_amount bigint not null,
        paid_amount bigint not null,
        change_amount bigint not null,
        voided_at timestamptz,
        void_reason text,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        constraint sales_orders_receipt_key unique (merchant_id, outlet_id, receipt_number),
        constraint sales_orders_total_check check (total_amount = subtotal_amount - discount_amount + tax_amount and total_amount >= 0),
        constraint sales_orders_change_check check (change_amount = paid_amount - total_amount and change_amount >= 0),
        constraint sales_orders_voided_check check ((status = 'voided') = (voided_at is not null)),
        constraint sales_orders_customer_fkey foreign key (customer_id, merchant_id) references catalog.customers (id, merchant_id)
      );
      create index sales_orders_list_idx on catalog.sales_orders (merchant_id, transacted_at desc, id desc);
      create index sales_orders_outlet_idx on catalog.sales_orders (merchant_id, outlet_id, transacted_at desc);

      create table catalog.sales_order_items (
        id uuid primary key,
        sales_order_id uuid not null references catalog.sales_orders (id),
        line_no integer not null,
        variant_id uuid,
        sku_snapshot text,
        name_snapshot text not null,
        quantity bigint not null constraint sales_order_items_quantity_check check (quantity > 0),
        unit_price_amount bigint not null constraint sales_order_items_price_check check (unit_price_amount >= 0),
        line_total_amount bigint not null,
        constraint sales_order_items_line_key unique (sales_order_id, line_no),
        constraint sales_order_items_total_check check (line_total_amount = quantity * unit_price_amount)
      );

      create table catalog.sales_order_payments (
        id uuid primary key,
        sales_order_id uuid not null references catalog.sales_orders (id),
        method text not null,
        amount bigint not null constraint sales_order_payments_amount_check check (amount > 0)
      );
      create index sales_order_payments_order_idx on catalog.sales_order_payments (sales_order_id);

      -- one row per pushed outbox item that was applied: the primary key is the idempotency of POST /sync/push
      create table catalog.sync_receipts (
        outbox_id uuid primary key,
        merchant_id uuid not null,
        entity_type text not null,
        entity_id uuid not null,
        op text not null,
        received_at timestamptz not null
      );
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop table catalog.sync_receipts, catalog.sales_order_payments, catalog.sales_order_items, catalog.sales_orders,
        catalog.receipt_counters, catalog.customers, catalog.stock_movements, catalog.product_stock, catalog.variants, catalog.products;
      drop trigger categories_sync_version on catalog.categories;
      alter table catalog.categories drop constraint categories_id_merchant_key, drop column sync_version;
      drop function catalog.assign_sync_version();
    `);
  }
}
