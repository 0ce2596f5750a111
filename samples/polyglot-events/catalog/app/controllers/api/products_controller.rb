module Api
  class ProductsController < ApplicationController
    def index
      render json: Product.all
    end

    def show
      render json: Product.find_by(sku: params[:id])
    end
  end
end
