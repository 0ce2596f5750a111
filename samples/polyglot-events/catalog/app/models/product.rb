class Product
  include Mongoid::Document

  field :sku, type: String
  field :name, type: String
  field :price, type: BigDecimal
  field :weight_grams, type: Integer
end
